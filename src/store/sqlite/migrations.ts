import type Database from 'better-sqlite3';
import { LATER_MIGRATIONS } from './later-migrations.js';
import type { Migration } from './migration.js';
import { searchIndexDefinition, searchIndexName, sessionToken } from './search-index.js';

export type { Migration } from './migration.js';

/** Migrations 1–12. */
const FIRST_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    change: `
      CREATE TABLE tenants (
        id TEXT PRIMARY KEY,
        created_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE sessions (
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        id TEXT NOT NULL,
        title TEXT NOT NULL,
        instructions TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        message_count INTEGER NOT NULL DEFAULT 0,
        turn_count INTEGER NOT NULL DEFAULT 0,
        token_count INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (tenant_id, id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX sessions_recent ON sessions (tenant_id, updated_at DESC);

      CREATE TABLE messages (
        seq INTEGER PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        id TEXT NOT NULL,
        turn INTEGER NOT NULL,
        position INTEGER NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
        speaker TEXT,
        content TEXT NOT NULL,
        tier1 TEXT NOT NULL,
        tier2 TEXT NOT NULL,
        tier1_tokens INTEGER NOT NULL,
        tier2_tokens INTEGER NOT NULL,
        tier3_tokens INTEGER NOT NULL,
        required_tier INTEGER NOT NULL CHECK (required_tier BETWEEN 1 AND 3),
        created_at TEXT NOT NULL,
        external_id TEXT,
        FOREIGN KEY (tenant_id, session_id) REFERENCES sessions (tenant_id, id) ON DELETE CASCADE
      ) STRICT;
      CREATE UNIQUE INDEX messages_id ON messages (tenant_id, id);
      CREATE UNIQUE INDEX messages_position ON messages (tenant_id, session_id, position);
      CREATE INDEX messages_turn ON messages (tenant_id, session_id, turn);

      CREATE VIRTUAL TABLE messages_fts USING fts5 (
        speaker, content,
        content = '', contentless_delete = 1,
        tokenize = 'porter unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
        INSERT INTO messages_fts (rowid, speaker, content) VALUES (new.seq, coalesce(new.speaker, ''), new.content);
      END;
      CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
        DELETE FROM messages_fts WHERE rowid = old.seq;
      END;

      CREATE TABLE turns (
        tenant_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        turn INTEGER NOT NULL,
        message_ids TEXT NOT NULL,
        user_summary TEXT NOT NULL,
        assistant_summary TEXT NOT NULL,
        depth TEXT NOT NULL CHECK (depth IN ('short', 'medium', 'long', 'code')),
        status TEXT NOT NULL CHECK (status IN ('summarised', 'fallback-raw', 'pending-retry')),
        window_extension INTEGER NOT NULL,
        tokens INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (tenant_id, session_id, turn),
        FOREIGN KEY (tenant_id, session_id) REFERENCES sessions (tenant_id, id) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX turns_status ON turns (tenant_id, status) WHERE status <> 'summarised';

      CREATE TABLE facts (
        tenant_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        id TEXT NOT NULL,
        key TEXT NOT NULL,
        text TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('fact', 'constraint', 'goal', 'preference', 'exception')),
        pinned INTEGER NOT NULL,
        source_message_ids TEXT NOT NULL,
        created_turn INTEGER NOT NULL,
        updated_turn INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (tenant_id, id),
        FOREIGN KEY (tenant_id, session_id) REFERENCES sessions (tenant_id, id) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX facts_session ON facts (tenant_id, session_id);

      CREATE TABLE fact_events (
        tenant_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        sequence INTEGER NOT NULL,
        id TEXT NOT NULL,
        fact_id TEXT,
        op TEXT NOT NULL CHECK (op IN ('add', 'update', 'remove', 'consolidate', 'reject', 'warning')),
        key TEXT NOT NULL,
        kind TEXT NOT NULL,
        old_text TEXT,
        new_text TEXT,
        turn INTEGER NOT NULL,
        actor TEXT NOT NULL,
        reason TEXT NOT NULL,
        source_message_ids TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (tenant_id, session_id, sequence),
        FOREIGN KEY (tenant_id, session_id) REFERENCES sessions (tenant_id, id) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;
      CREATE UNIQUE INDEX fact_events_id ON fact_events (tenant_id, id);

      CREATE TABLE artifacts (
        tenant_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        id TEXT NOT NULL,
        name TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('code', 'draft')),
        language TEXT,
        PRIMARY KEY (tenant_id, id),
        UNIQUE (tenant_id, session_id, name),
        FOREIGN KEY (tenant_id, session_id) REFERENCES sessions (tenant_id, id) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE artifact_versions (
        tenant_id TEXT NOT NULL,
        artifact_id TEXT NOT NULL,
        version INTEGER NOT NULL,
        turn INTEGER NOT NULL,
        message_id TEXT NOT NULL,
        content TEXT NOT NULL,
        tokens INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (tenant_id, artifact_id, version),
        FOREIGN KEY (tenant_id, artifact_id) REFERENCES artifacts (tenant_id, id) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    name: 'covering index for turn-ordered message ids',
    change: `
      DROP INDEX messages_turn;
      CREATE INDEX messages_turn ON messages (tenant_id, session_id, turn, position, id);
    `,
  },
  {
    version: 3,
    name: 'one search index per tenant',
    change: (db) => {
      db.exec(`DROP TRIGGER messages_fts_insert; DROP TRIGGER messages_fts_delete; DROP TABLE messages_fts;`);
      const fill = (table: string): Database.Statement<[string]> =>
        db.prepare(`INSERT INTO ${table} (rowid, speaker, content)
          SELECT seq, coalesce(speaker, ''), content FROM messages WHERE tenant_id = ?`);
      for (const tenant of db.prepare<[], { rowid: number; id: string }>('SELECT rowid, id FROM tenants').all()) {
        const table = searchIndexName(tenant.rowid);
        // (The definition of the time; version 8 gives the index a session column.)
        db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING fts5 (
          speaker, content, content = '', contentless_delete = 1, tokenize = 'porter unicode61 remove_diacritics 2'
        )`);
        fill(table).run(tenant.id);
      }
    },
  },
  {
    version: 4,
    name: 'persisted memory-retry queue',
    // Keyed to the turn row, so deleting a session (which cascades to its turns) empties its queue.
    change: `
      CREATE TABLE memory_retries (
        tenant_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        turn INTEGER NOT NULL,
        attempts INTEGER NOT NULL CHECK (attempts >= 1),
        next_attempt_at TEXT NOT NULL,
        reason TEXT NOT NULL,
        last_error TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (tenant_id, session_id, turn),
        FOREIGN KEY (tenant_id, session_id, turn) REFERENCES turns (tenant_id, session_id, turn) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX memory_retries_due ON memory_retries (tenant_id, next_attempt_at);
    `,
  },
  {
    version: 5,
    name: 'turns answered on stale memory',
    change: `ALTER TABLE turns ADD COLUMN stale_memory INTEGER NOT NULL DEFAULT 0 CHECK (stale_memory IN (0, 1));`,
  },
  {
    version: 6,
    name: 'the time a message was sent, when known',
    // Messages stored before took their time as the time they were sent.
    change: `
      ALTER TABLE messages ADD COLUMN sent_at TEXT;
      UPDATE messages SET sent_at = created_at;
    `,
  },
  {
    version: 7,
    name: 'facts that may replace an older fact',
    change: `
      ALTER TABLE facts ADD COLUMN may_replace TEXT;
      ALTER TABLE fact_events ADD COLUMN may_replace TEXT;
    `,
  },
  {
    version: 8,
    name: 'the session in the search index',
    // A contentless index cannot gain a column: each tenant's is built again from the messages.
    change: (db) => {
      db.function('strata_session_token', { deterministic: true }, (sessionId) => sessionToken(String(sessionId)));
      const fill = (table: string): Database.Statement<[string]> =>
        db.prepare(`INSERT INTO ${table} (rowid, speaker, content, session)
          SELECT seq, coalesce(speaker, ''), content, strata_session_token(session_id) FROM messages WHERE tenant_id = ?`);
      for (const tenant of db.prepare<[], { rowid: number; id: string }>('SELECT rowid, id FROM tenants').all()) {
        const table = searchIndexName(tenant.rowid);
        const exists = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(table) !== undefined;
        if (!exists) continue;
        db.exec(`DROP TABLE ${table}`);
        db.exec(searchIndexDefinition(table));
        fill(table).run(tenant.id);
      }
    },
  },
  {
    version: 9,
    name: 'sessions hidden while they are imported',
    // Set while an import writes the session in batches; a session whose import stopped (the process died) is removed once it is past.
    change: `
      ALTER TABLE sessions ADD COLUMN import_until TEXT;
      CREATE INDEX sessions_importing ON sessions (tenant_id, import_until) WHERE import_until IS NOT NULL;
    `,
  },
  {
    version: 10,
    name: 'API keys',
    // A key is kept only as its SHA-256 hash; looking one up is one read of the unique index on it.
    change: `
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        name TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      ) STRICT;
      CREATE INDEX api_keys_by_tenant ON api_keys (tenant_id, created_at);
    `,
  },
  {
    version: 11,
    name: 'undo events name the event they revert',
    // Events from before keep no link: their undos read as any other change.
    change: 'ALTER TABLE fact_events ADD COLUMN undoes TEXT;',
  },
  {
    version: 12,
    name: "a session's facts in store order",
    // A session's facts are read in store order (created turn, id): from this index, in order, instead
    // of every fact of the tenant sorted (the planner took the primary key's tenant prefix over the
    // session index and sorted what it read).
    change: `
      CREATE INDEX IF NOT EXISTS facts_session_order ON facts (tenant_id, session_id, created_turn, id);
      DROP INDEX IF EXISTS facts_session;
    `,
  },
];

/** Versioned schema migrations, applied in order on open. Append only: never edit a shipped one. */
export const MIGRATIONS: readonly Migration[] = [...FIRST_MIGRATIONS, ...LATER_MIGRATIONS];

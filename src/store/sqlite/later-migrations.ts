/** Migrations 13 on (migrations.ts joins them to the first ones). Append only: never edit a shipped one. */
import type { Migration } from './migration.js';

/** What a memory's search row holds: its value, name, subject and tags, as words (`m` is the memory). */
const SEARCHED_TEXT = `m.value || ' ' || coalesce(m.name, '') || ' ' || replace(coalesce(m.subject, ''), '-', ' ') || ' ' ||
  coalesce((SELECT group_concat(replace(replace(tag, '/', ' '), '-', ' '), ' ') FROM long_term_tags WHERE tenant_id = m.tenant_id AND memory_id = m.id), '')`;

/** Trigger statements that write a memory's search row afresh (none while it is deprecated or gone). */
function indexMemory(tenant: string, memory: string): string {
  return `DELETE FROM long_term_search WHERE rowid = (SELECT rowid FROM long_term_rows WHERE tenant_id = ${tenant} AND memory_id = ${memory});
        INSERT INTO long_term_search (rowid, tenant, text)
          SELECT r.rowid, 't' || (SELECT rowid FROM tenants WHERE id = m.tenant_id), ${SEARCHED_TEXT}
            FROM long_term_rows r JOIN long_term_memories m ON m.tenant_id = r.tenant_id AND m.id = r.memory_id
           WHERE r.tenant_id = ${tenant} AND r.memory_id = ${memory} AND m.deprecated = 0;`;
}

export const LATER_MIGRATIONS: readonly Migration[] = [
  {
    version: 13,
    name: 'tool calls and tool results',
    // The role check cannot change in place: the table is made again, its rows copied with their `seq`
    // (the search index's rowids) unchanged.
    change: `
      CREATE TABLE messages_next (
        seq INTEGER PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        id TEXT NOT NULL,
        turn INTEGER NOT NULL,
        position INTEGER NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
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
        sent_at TEXT,
        tool_calls TEXT CHECK (tool_calls IS NULL OR role = 'assistant'),
        tool_call_id TEXT CHECK ((tool_call_id IS NULL) = (role <> 'tool')),
        FOREIGN KEY (tenant_id, session_id) REFERENCES sessions (tenant_id, id) ON DELETE CASCADE
      ) STRICT;
      INSERT INTO messages_next (seq, tenant_id, session_id, id, turn, position, role, speaker, content, tier1, tier2,
          tier1_tokens, tier2_tokens, tier3_tokens, required_tier, created_at, external_id, sent_at)
        SELECT seq, tenant_id, session_id, id, turn, position, role, speaker, content, tier1, tier2,
          tier1_tokens, tier2_tokens, tier3_tokens, required_tier, created_at, external_id, sent_at FROM messages;
      DROP TABLE messages;
      ALTER TABLE messages_next RENAME TO messages;
      CREATE UNIQUE INDEX messages_id ON messages (tenant_id, id);
      CREATE UNIQUE INDEX messages_position ON messages (tenant_id, session_id, position);
      CREATE INDEX messages_turn ON messages (tenant_id, session_id, turn, position, id);
    `,
  },
  {
    version: 14,
    name: "facts stored in their session's order",
    // The table is clustered by its primary key: keyed by session and store order, a session's facts are
    // one range of the table (reading 10,000 of them was 10,000 lookups through an index, about 90 ms),
    // and deleting a session finds its facts by the key's prefix. Ids stay unique per tenant.
    change: `
      CREATE TABLE facts_next (
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
        may_replace TEXT,
        PRIMARY KEY (tenant_id, session_id, created_turn, id),
        FOREIGN KEY (tenant_id, session_id) REFERENCES sessions (tenant_id, id) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;
      INSERT INTO facts_next (tenant_id, session_id, id, key, text, kind, pinned, source_message_ids, created_turn, updated_turn, created_at, updated_at, may_replace)
        SELECT tenant_id, session_id, id, key, text, kind, pinned, source_message_ids, created_turn, updated_turn, created_at, updated_at, may_replace FROM facts;
      DROP TABLE facts;
      ALTER TABLE facts_next RENAME TO facts;
      CREATE UNIQUE INDEX facts_id ON facts (tenant_id, id);
    `,
  },
  {
    version: 15,
    name: "turns' sent times from the index",
    // The first package of a long session dates every turn its facts were established in (9,200 turns
    // of a 100,000-message session): with the time in the index, each is one index probe, no row read.
    change: `
      DROP INDEX IF EXISTS messages_turn;
      CREATE INDEX messages_turn ON messages (tenant_id, session_id, turn, position, id, sent_at);
    `,
  },
  {
    version: 16,
    name: 'tiers raised on request, and the requests of a turn',
    // A message the chat model asked to see in more detail keeps the tier it had (default_tier) and the
    // turn of the latest request, so it can return to it; the few raised messages are found by index.
    change: `
      ALTER TABLE messages ADD COLUMN default_tier INTEGER CHECK (default_tier BETWEEN 1 AND 3);
      ALTER TABLE messages ADD COLUMN raised_at_turn INTEGER;
      CREATE INDEX messages_raised ON messages (tenant_id, session_id, raised_at_turn) WHERE raised_at_turn IS NOT NULL;
      ALTER TABLE turns ADD COLUMN detail_requests TEXT;
    `,
  },
  {
    version: 17,
    name: 'vector spaces and how far each session is embedded',
    // Each (tenant, embedder) pair gets a sqlite-vec table of its own, named after the space's rowid
    // (vectors_<id>), made when its first vector is stored; a session's progress is the position of its
    // last message embedded there, so the messages still to embed are found by index.
    change: `
      CREATE TABLE vector_spaces (
        id INTEGER PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        space TEXT NOT NULL,
        dimensions INTEGER NOT NULL CHECK (dimensions > 0),
        UNIQUE (tenant_id, space)
      ) STRICT;
      CREATE TABLE vector_progress (
        tenant_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        space_id INTEGER NOT NULL REFERENCES vector_spaces(id) ON DELETE CASCADE,
        through_position INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, session_id, space_id),
        FOREIGN KEY (tenant_id, session_id) REFERENCES sessions(tenant_id, id) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;
      -- Vectors of deleted sessions a process without sqlite-vec could not remove: removed on the next
      -- open with it (a vec0 table cannot be written without the extension).
      CREATE TABLE vector_orphans (
        space_id INTEGER NOT NULL REFERENCES vector_spaces(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        PRIMARY KEY (space_id, seq)
      ) STRICT, WITHOUT ROWID;
    `,
  },
  {
    version: 18,
    name: 'claims on the sessions whose memory retries a process is running',
    // A claim keeps other processes (or servers) from retrying the same session until it ends.
    change: `
      CREATE TABLE retry_claims (
        tenant_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        claimant TEXT NOT NULL,
        until TEXT NOT NULL,
        PRIMARY KEY (tenant_id, session_id),
        FOREIGN KEY (tenant_id, session_id) REFERENCES sessions(tenant_id, id) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;
    `,
  },
  {
    version: 19,
    name: 'the revision of each turn last written',
    // Every write of a turn's summary or of its messages' tiers gives the turns it wrote the tenant's
    // next revision (a counter that never goes back, so a session deleted and made again under its id
    // never repeats one), and a process caching older turns learns in one indexed read which turns
    // others changed.
    change: `
      ALTER TABLE tenants ADD COLUMN turn_revision INTEGER NOT NULL DEFAULT 0;
      CREATE TABLE turn_changes (
        tenant_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        turn INTEGER NOT NULL,
        revision INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, session_id, turn),
        FOREIGN KEY (tenant_id, session_id) REFERENCES sessions(tenant_id, id) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX turn_changes_by_revision ON turn_changes (tenant_id, session_id, revision);
    `,
  },
  {
    version: 20,
    name: 'long-term memories, their versions, tags and edges',
    // A tenant's memories across sessions. Keys come from a count per tenant that never goes back; every
    // version of a memory is kept; tags and edges say who set them.
    change: `
      ALTER TABLE tenants ADD COLUMN memory_count INTEGER NOT NULL DEFAULT 0;
      CREATE TABLE long_term_memories (
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        id TEXT NOT NULL,
        key TEXT NOT NULL,
        name TEXT,
        value TEXT NOT NULL,
        version INTEGER NOT NULL,
        deprecated INTEGER NOT NULL DEFAULT 0,
        sources TEXT NOT NULL,
        created_at TEXT NOT NULL,
        modified_at TEXT NOT NULL,
        reviewed_at TEXT,
        tended_at TEXT,
        accessed_at TEXT,
        PRIMARY KEY (tenant_id, id)
      ) STRICT, WITHOUT ROWID;
      CREATE UNIQUE INDEX long_term_by_key ON long_term_memories (tenant_id, key);
      CREATE UNIQUE INDEX long_term_by_name ON long_term_memories (tenant_id, name) WHERE name IS NOT NULL;
      CREATE INDEX long_term_recent ON long_term_memories (tenant_id, modified_at DESC, id);
      CREATE TABLE long_term_versions (
        tenant_id TEXT NOT NULL,
        memory_id TEXT NOT NULL,
        version INTEGER NOT NULL,
        value TEXT NOT NULL,
        deprecated INTEGER NOT NULL,
        at TEXT NOT NULL,
        author TEXT NOT NULL,
        reason TEXT NOT NULL,
        PRIMARY KEY (tenant_id, memory_id, version),
        FOREIGN KEY (tenant_id, memory_id) REFERENCES long_term_memories(tenant_id, id) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE long_term_tags (
        tenant_id TEXT NOT NULL,
        memory_id TEXT NOT NULL,
        tag TEXT NOT NULL,
        author TEXT NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (tenant_id, memory_id, tag),
        FOREIGN KEY (tenant_id, memory_id) REFERENCES long_term_memories(tenant_id, id) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX long_term_tags_by_tag ON long_term_tags (tenant_id, tag, memory_id);
      CREATE TABLE long_term_edges (
        tenant_id TEXT NOT NULL,
        from_id TEXT NOT NULL,
        to_id TEXT NOT NULL,
        type TEXT NOT NULL,
        author TEXT NOT NULL,
        at TEXT NOT NULL,
        reason TEXT NOT NULL,
        PRIMARY KEY (tenant_id, from_id, to_id, type),
        FOREIGN KEY (tenant_id, from_id) REFERENCES long_term_memories(tenant_id, id) ON DELETE CASCADE,
        FOREIGN KEY (tenant_id, to_id) REFERENCES long_term_memories(tenant_id, id) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX long_term_edges_to ON long_term_edges (tenant_id, to_id);
    `,
  },
  {
    version: 21,
    name: 'long-term memory subjects and search',
    // A memory promoted from a session's facts names its subject, unique in the tenant. Current memories are
    // searchable: an FTS5 row per memory holding its value, name, subject and tags (their words), and its
    // tenant's token "t<rowid of the tenant>", so a search is scoped to the tenant inside the index query.
    // Triggers keep it (the memory's rowid there lives in long_term_rows).
    change: `
      ALTER TABLE long_term_memories ADD COLUMN subject TEXT;
      CREATE UNIQUE INDEX long_term_by_subject ON long_term_memories (tenant_id, subject) WHERE subject IS NOT NULL;
      CREATE TABLE long_term_rows (
        rowid INTEGER PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        memory_id TEXT NOT NULL,
        UNIQUE (tenant_id, memory_id)
      ) STRICT;
      CREATE VIRTUAL TABLE long_term_search USING fts5 (
        tenant, text, content = '', contentless_delete = 1, tokenize = 'porter unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER long_term_search_insert AFTER INSERT ON long_term_memories BEGIN
        INSERT INTO long_term_rows (tenant_id, memory_id) VALUES (new.tenant_id, new.id);
        ${indexMemory('new.tenant_id', 'new.id')}
      END;
      CREATE TRIGGER long_term_search_update AFTER UPDATE OF value, name, subject, deprecated ON long_term_memories BEGIN
        ${indexMemory('new.tenant_id', 'new.id')}
      END;
      CREATE TRIGGER long_term_search_tag AFTER INSERT ON long_term_tags BEGIN
        ${indexMemory('new.tenant_id', 'new.memory_id')}
      END;
      CREATE TRIGGER long_term_search_untag AFTER DELETE ON long_term_tags BEGIN
        ${indexMemory('old.tenant_id', 'old.memory_id')}
      END;
      CREATE TRIGGER long_term_search_delete AFTER DELETE ON long_term_memories BEGIN
        DELETE FROM long_term_search WHERE rowid = (SELECT rowid FROM long_term_rows WHERE tenant_id = old.tenant_id AND memory_id = old.id);
        DELETE FROM long_term_rows WHERE tenant_id = old.tenant_id AND memory_id = old.id;
      END;
      INSERT INTO long_term_rows (tenant_id, memory_id) SELECT tenant_id, id FROM long_term_memories ORDER BY tenant_id, id;
      INSERT INTO long_term_search (rowid, tenant, text)
        SELECT r.rowid, 't' || t.rowid, ${SEARCHED_TEXT}
          FROM long_term_rows r
          JOIN long_term_memories m ON m.tenant_id = r.tenant_id AND m.id = r.memory_id
          JOIN tenants t ON t.id = r.tenant_id
         WHERE m.deprecated = 0;
    `,
  },
  {
    version: 22,
    name: 'long-term memory maintenance runs',
    // Maintenance tends the memories tended least recently first (never tended first: NULL sorts first),
    // and keeps a record of every run: what it looked at, what each agent did or proposed, what failed.
    change: `
      CREATE INDEX long_term_by_tended ON long_term_memories (tenant_id, tended_at, id) WHERE deprecated = 0;
      CREATE TABLE long_term_runs (
        tenant_id TEXT NOT NULL,
        id TEXT NOT NULL,
        started_at TEXT NOT NULL,
        run TEXT NOT NULL,
        PRIMARY KEY (tenant_id, id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX long_term_runs_by_start ON long_term_runs (tenant_id, started_at, id);
    `,
  },
  {
    version: 23,
    name: 'cells of large sessions\' vectors',
    // A session past some thousands of vectors files its later ones in cells around centroids drawn from
    // its own messages, so a search reads a few cells, not every vector (vector-cells.ts); a row per drawing,
    // whose id is never used again (a session deleted and made anew under its id draws generation 1 again).
    change: `
      CREATE TABLE vector_cells (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        space_id INTEGER NOT NULL,
        tenant_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        generation INTEGER NOT NULL,
        cells INTEGER NOT NULL,
        drawn_at INTEGER NOT NULL,
        centroids BLOB NOT NULL,
        UNIQUE (space_id, tenant_id, session_id, generation)
      ) STRICT;
      CREATE INDEX vector_cells_by_session ON vector_cells (tenant_id, session_id);
    `,
  },
];

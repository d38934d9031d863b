/**
 * The PostgreSQL store's versioned schema. Tables mirror the SQLite store's (same names and columns),
 * in a schema of their own (`strata` by default) so they never meet an application's tables in the
 * same database. Times stay ISO-8601 text as the Store port gives them (a round trip through
 * timestamptz would not give back an offset as written); lists of ids and tool calls are jsonb. Text
 * compares and sorts byte by byte (COLLATE "C"), as SQLite's does, whatever the database's locale.
 * Each message keeps its search terms (search-terms.ts) as a tsvector and how many it has, each
 * session the sum of those counts, and search_terms how many of a tenant's messages hold each term,
 * for BM25 (counting them in the messages took a scan of the tenant's rows for every common word).
 * Statements run with `search_path` set to the store's schema, so the names here are unqualified.
 */

/** One versioned schema change. */
export interface PostgresMigration {
  version: number;
  name: string;
  sql: string;
}

export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
      CREATE TABLE tenants (
        id text COLLATE "C" PRIMARY KEY,
        created_at text COLLATE "C" NOT NULL
      );

      CREATE TABLE sessions (
        tenant_id text COLLATE "C" NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        id text COLLATE "C" NOT NULL,
        title text COLLATE "C" NOT NULL,
        instructions text COLLATE "C" NOT NULL DEFAULT '',
        created_at text COLLATE "C" NOT NULL,
        updated_at text COLLATE "C" NOT NULL,
        message_count integer NOT NULL DEFAULT 0,
        turn_count integer NOT NULL DEFAULT 0,
        token_count bigint NOT NULL DEFAULT 0,
        search_length bigint NOT NULL DEFAULT 0,
        import_until text COLLATE "C",
        PRIMARY KEY (tenant_id, id)
      );
      CREATE INDEX sessions_recent ON sessions (tenant_id, updated_at DESC);
      CREATE INDEX sessions_importing ON sessions (tenant_id, import_until) WHERE import_until IS NOT NULL;

      CREATE TABLE messages (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL,
        session_id text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        turn integer NOT NULL,
        position integer NOT NULL,
        role text COLLATE "C" NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
        speaker text COLLATE "C",
        content text COLLATE "C" NOT NULL,
        tier1 text COLLATE "C" NOT NULL,
        tier2 text COLLATE "C" NOT NULL,
        tier1_tokens integer NOT NULL,
        tier2_tokens integer NOT NULL,
        tier3_tokens integer NOT NULL,
        required_tier smallint NOT NULL CHECK (required_tier BETWEEN 1 AND 3),
        default_tier smallint CHECK (default_tier BETWEEN 1 AND 3),
        raised_at_turn integer,
        created_at text COLLATE "C" NOT NULL,
        external_id text COLLATE "C",
        sent_at text COLLATE "C",
        tool_calls text COLLATE "C" CHECK (tool_calls IS NULL OR role = 'assistant'),
        tool_call_id text COLLATE "C" CHECK ((tool_call_id IS NULL) = (role <> 'tool')),
        search_vector tsvector NOT NULL,
        search_length integer NOT NULL,
        FOREIGN KEY (tenant_id, session_id) REFERENCES sessions (tenant_id, id) ON DELETE CASCADE
      ) WITH (fillfactor = 75);
      CREATE UNIQUE INDEX messages_id ON messages (tenant_id, id);
      CREATE UNIQUE INDEX messages_position ON messages (tenant_id, session_id, position);
      CREATE INDEX messages_turn ON messages (tenant_id, session_id, turn, position, id, sent_at);
      CREATE INDEX messages_search ON messages USING gin (search_vector);

      CREATE TABLE search_terms (
        tenant_id text COLLATE "C" NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        lexeme text COLLATE "C" NOT NULL,
        documents integer NOT NULL,
        PRIMARY KEY (tenant_id, lexeme)
      );
      CREATE INDEX messages_raised ON messages (tenant_id, session_id, raised_at_turn) WHERE raised_at_turn IS NOT NULL;

      CREATE TABLE turns (
        tenant_id text COLLATE "C" NOT NULL,
        session_id text COLLATE "C" NOT NULL,
        turn integer NOT NULL,
        message_ids jsonb NOT NULL,
        user_summary text COLLATE "C" NOT NULL,
        assistant_summary text COLLATE "C" NOT NULL,
        depth text COLLATE "C" NOT NULL CHECK (depth IN ('short', 'medium', 'long', 'code')),
        status text COLLATE "C" NOT NULL CHECK (status IN ('summarised', 'fallback-raw', 'pending-retry')),
        window_extension integer NOT NULL,
        tokens integer NOT NULL,
        created_at text COLLATE "C" NOT NULL,
        stale_memory boolean NOT NULL DEFAULT false,
        detail_requests jsonb,
        PRIMARY KEY (tenant_id, session_id, turn),
        FOREIGN KEY (tenant_id, session_id) REFERENCES sessions (tenant_id, id) ON DELETE CASCADE
      );
      CREATE INDEX turns_status ON turns (tenant_id, status) WHERE status <> 'summarised';

      CREATE TABLE facts (
        tenant_id text COLLATE "C" NOT NULL,
        session_id text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        key text COLLATE "C" NOT NULL,
        text text COLLATE "C" NOT NULL,
        kind text COLLATE "C" NOT NULL CHECK (kind IN ('fact', 'constraint', 'goal', 'preference', 'exception')),
        pinned boolean NOT NULL,
        source_message_ids jsonb NOT NULL,
        created_turn integer NOT NULL,
        updated_turn integer NOT NULL,
        created_at text COLLATE "C" NOT NULL,
        updated_at text COLLATE "C" NOT NULL,
        may_replace text COLLATE "C",
        PRIMARY KEY (tenant_id, session_id, created_turn, id),
        FOREIGN KEY (tenant_id, session_id) REFERENCES sessions (tenant_id, id) ON DELETE CASCADE
      );
      CREATE UNIQUE INDEX facts_id ON facts (tenant_id, id);

      CREATE TABLE fact_events (
        tenant_id text COLLATE "C" NOT NULL,
        session_id text COLLATE "C" NOT NULL,
        sequence integer NOT NULL,
        id text COLLATE "C" NOT NULL,
        fact_id text COLLATE "C",
        op text COLLATE "C" NOT NULL CHECK (op IN ('add', 'update', 'remove', 'consolidate', 'reject', 'warning')),
        key text COLLATE "C" NOT NULL,
        kind text COLLATE "C" NOT NULL,
        old_text text COLLATE "C",
        new_text text COLLATE "C",
        turn integer NOT NULL,
        actor text COLLATE "C" NOT NULL,
        reason text COLLATE "C" NOT NULL,
        source_message_ids jsonb NOT NULL,
        created_at text COLLATE "C" NOT NULL,
        may_replace text COLLATE "C",
        undoes text COLLATE "C",
        PRIMARY KEY (tenant_id, session_id, sequence),
        FOREIGN KEY (tenant_id, session_id) REFERENCES sessions (tenant_id, id) ON DELETE CASCADE
      );
      CREATE UNIQUE INDEX fact_events_id ON fact_events (tenant_id, id);

      CREATE TABLE artifacts (
        tenant_id text COLLATE "C" NOT NULL,
        session_id text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        name text COLLATE "C" NOT NULL,
        kind text COLLATE "C" NOT NULL CHECK (kind IN ('code', 'draft')),
        language text COLLATE "C",
        PRIMARY KEY (tenant_id, id),
        UNIQUE (tenant_id, session_id, name),
        FOREIGN KEY (tenant_id, session_id) REFERENCES sessions (tenant_id, id) ON DELETE CASCADE
      );

      CREATE TABLE artifact_versions (
        tenant_id text COLLATE "C" NOT NULL,
        artifact_id text COLLATE "C" NOT NULL,
        version integer NOT NULL,
        turn integer NOT NULL,
        message_id text COLLATE "C" NOT NULL,
        content text COLLATE "C" NOT NULL,
        tokens integer NOT NULL,
        created_at text COLLATE "C" NOT NULL,
        PRIMARY KEY (tenant_id, artifact_id, version),
        FOREIGN KEY (tenant_id, artifact_id) REFERENCES artifacts (tenant_id, id) ON DELETE CASCADE
      );

      CREATE TABLE memory_retries (
        tenant_id text COLLATE "C" NOT NULL,
        session_id text COLLATE "C" NOT NULL,
        turn integer NOT NULL,
        attempts integer NOT NULL CHECK (attempts >= 1),
        next_attempt_at text COLLATE "C" NOT NULL,
        reason text COLLATE "C" NOT NULL,
        last_error text COLLATE "C" NOT NULL,
        created_at text COLLATE "C" NOT NULL,
        updated_at text COLLATE "C" NOT NULL,
        PRIMARY KEY (tenant_id, session_id, turn),
        FOREIGN KEY (tenant_id, session_id, turn) REFERENCES turns (tenant_id, session_id, turn) ON DELETE CASCADE
      );
      CREATE INDEX memory_retries_due ON memory_retries (tenant_id, next_attempt_at);

      CREATE TABLE retry_claims (
        tenant_id text COLLATE "C" NOT NULL,
        session_id text COLLATE "C" NOT NULL,
        claimant text COLLATE "C" NOT NULL,
        until text COLLATE "C" NOT NULL,
        PRIMARY KEY (tenant_id, session_id),
        FOREIGN KEY (tenant_id, session_id) REFERENCES sessions (tenant_id, id) ON DELETE CASCADE
      );

      CREATE TABLE api_keys (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL,
        name text COLLATE "C" NOT NULL,
        hash text COLLATE "C" NOT NULL UNIQUE,
        created_at text COLLATE "C" NOT NULL,
        revoked_at text COLLATE "C"
      );
      CREATE INDEX api_keys_by_tenant ON api_keys (tenant_id, created_at);

      CREATE TABLE vector_spaces (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        space text COLLATE "C" NOT NULL,
        dimensions integer NOT NULL CHECK (dimensions > 0),
        UNIQUE (tenant_id, space)
      );

      CREATE TABLE vector_progress (
        tenant_id text COLLATE "C" NOT NULL,
        session_id text COLLATE "C" NOT NULL,
        space_id integer NOT NULL REFERENCES vector_spaces (id) ON DELETE CASCADE,
        through_position integer NOT NULL,
        PRIMARY KEY (tenant_id, session_id, space_id),
        FOREIGN KEY (tenant_id, session_id) REFERENCES sessions (tenant_id, id) ON DELETE CASCADE
      );
      CREATE INDEX vector_progress_space ON vector_progress (space_id);
    `,
  },
  {
    version: 2,
    name: 'the revision of each turn last written',
    // Every write of a turn's summary or of its messages' tiers gives the turns it wrote the tenant's
    // next revision (a counter that never goes back, so a session deleted and made again under its id
    // never repeats one), and a server caching older turns learns in one indexed read which turns
    // others changed.
    sql: `
      ALTER TABLE tenants ADD COLUMN turn_revision bigint NOT NULL DEFAULT 0;
      CREATE TABLE turn_changes (
        tenant_id text COLLATE "C" NOT NULL,
        session_id text COLLATE "C" NOT NULL,
        turn integer NOT NULL,
        revision bigint NOT NULL,
        PRIMARY KEY (tenant_id, session_id, turn),
        FOREIGN KEY (tenant_id, session_id) REFERENCES sessions (tenant_id, id) ON DELETE CASCADE
      );
      CREATE INDEX turn_changes_by_revision ON turn_changes (tenant_id, session_id, revision);
    `,
  },
  {
    version: 3,
    name: 'long-term memory',
    // A tenant's memories, every version of each, their tags and the typed edges between them. The
    // tenant counts the memories it ever made (never decremented), so its n-th memory gets the key
    // memoryKey(n) and a key is never given twice. Sources are a jsonb list of {sessionId, messageIds};
    // the author of a version, tag or edge is in column author ("by" is a reserved word).
    sql: `
      ALTER TABLE tenants ADD COLUMN memory_count bigint NOT NULL DEFAULT 0;

      CREATE TABLE long_term_memories (
        tenant_id text COLLATE "C" NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        id text COLLATE "C" NOT NULL,
        key text COLLATE "C" NOT NULL,
        name text COLLATE "C",
        value text COLLATE "C" NOT NULL,
        version integer NOT NULL,
        deprecated boolean NOT NULL DEFAULT false,
        sources jsonb NOT NULL,
        created_at text COLLATE "C" NOT NULL,
        modified_at text COLLATE "C" NOT NULL,
        reviewed_at text COLLATE "C",
        tended_at text COLLATE "C",
        accessed_at text COLLATE "C",
        PRIMARY KEY (tenant_id, id)
      );
      CREATE UNIQUE INDEX long_term_by_key ON long_term_memories (tenant_id, key);
      CREATE UNIQUE INDEX long_term_by_name ON long_term_memories (tenant_id, name) WHERE name IS NOT NULL;
      CREATE INDEX long_term_recent ON long_term_memories (tenant_id, modified_at DESC, id);

      CREATE TABLE long_term_versions (
        tenant_id text COLLATE "C" NOT NULL,
        memory_id text COLLATE "C" NOT NULL,
        version integer NOT NULL,
        value text COLLATE "C" NOT NULL,
        deprecated boolean NOT NULL,
        at text COLLATE "C" NOT NULL,
        author text COLLATE "C" NOT NULL,
        reason text COLLATE "C" NOT NULL,
        PRIMARY KEY (tenant_id, memory_id, version),
        FOREIGN KEY (tenant_id, memory_id) REFERENCES long_term_memories (tenant_id, id) ON DELETE CASCADE
      );

      CREATE TABLE long_term_tags (
        tenant_id text COLLATE "C" NOT NULL,
        memory_id text COLLATE "C" NOT NULL,
        tag text COLLATE "C" NOT NULL,
        author text COLLATE "C" NOT NULL,
        at text COLLATE "C" NOT NULL,
        PRIMARY KEY (tenant_id, memory_id, tag),
        FOREIGN KEY (tenant_id, memory_id) REFERENCES long_term_memories (tenant_id, id) ON DELETE CASCADE
      );
      CREATE INDEX long_term_tags_by_tag ON long_term_tags (tenant_id, tag, memory_id);

      CREATE TABLE long_term_edges (
        tenant_id text COLLATE "C" NOT NULL,
        from_id text COLLATE "C" NOT NULL,
        to_id text COLLATE "C" NOT NULL,
        type text COLLATE "C" NOT NULL,
        author text COLLATE "C" NOT NULL,
        at text COLLATE "C" NOT NULL,
        reason text COLLATE "C" NOT NULL,
        PRIMARY KEY (tenant_id, from_id, to_id, type),
        FOREIGN KEY (tenant_id, from_id) REFERENCES long_term_memories (tenant_id, id) ON DELETE CASCADE,
        FOREIGN KEY (tenant_id, to_id) REFERENCES long_term_memories (tenant_id, id) ON DELETE CASCADE
      );
      CREATE INDEX long_term_edges_to ON long_term_edges (tenant_id, to_id);
    `,
  },
  {
    version: 4,
    name: 'long-term memory subjects and search',
    // A memory promoted from a session's facts names its subject, unique in the tenant. Current memories
    // are found by their words: a stored tsvector of their value, name, subject and tag words (the words
    // of the tags it holds, kept by the repository as tags come and go), with a GIN index.
    sql: `
      ALTER TABLE long_term_memories ADD COLUMN subject text;
      ALTER TABLE long_term_memories ADD COLUMN tag_words text NOT NULL DEFAULT '';
      UPDATE long_term_memories m SET tag_words = coalesce((
        SELECT string_agg(translate(tag, '/-', '  '), ' ' ORDER BY tag) FROM long_term_tags t WHERE t.tenant_id = m.tenant_id AND t.memory_id = m.id), '');
      CREATE UNIQUE INDEX long_term_by_subject ON long_term_memories (tenant_id, subject) WHERE subject IS NOT NULL;
      ALTER TABLE long_term_memories ADD COLUMN search tsvector GENERATED ALWAYS AS (
        to_tsvector('english', value || ' ' || coalesce(name, '') || ' ' || replace(coalesce(subject, ''), '-', ' ') || ' ' || tag_words)
      ) STORED;
      CREATE INDEX long_term_search ON long_term_memories USING gin (search) WHERE NOT deprecated;
    `,
  },
  {
    version: 5,
    name: 'long-term memory maintenance runs',
    // Maintenance tends the memories tended least recently first (never tended first), and keeps a record
    // of every run: what it looked at, what each agent did or proposed, what failed.
    sql: `
      CREATE INDEX long_term_by_tended ON long_term_memories (tenant_id, tended_at NULLS FIRST, id) WHERE NOT deprecated;
      CREATE TABLE long_term_runs (
        tenant_id text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        started_at text COLLATE "C" NOT NULL,
        run jsonb NOT NULL,
        PRIMARY KEY (tenant_id, id)
      );
      CREATE INDEX long_term_runs_by_start ON long_term_runs (tenant_id, started_at DESC, id DESC);
    `,
  },
];

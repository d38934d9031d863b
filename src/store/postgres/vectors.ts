/**
 * The PostgreSQL vector index (pgvector): a table per space of a tenant (vector_spaces names it), each
 * row a message's vector beside its session, turn and position, deleted with its session
 * (`deleteSessionVectors`; a foreign key to messages would make every deleted message visit the space
 * tables of every tenant: deleting 2,000 messages took 14 s beside 400 other tenants' spaces). A search
 * of a session compares the query with every vector of the session (exact, as SQLite's is), through an
 * index on the session; a session with many vectors is searched through the table's HNSW index instead
 * (see `HNSW_FROM_NUMBERS`), built when such a session first needs it (`vector-index-builds.ts`). How
 * far each session is embedded is one row of vector_progress.
 */
import { StrataError } from '../../core/errors.js';
import { messageText } from '../../core/tool-calls.js';
import type { ToolCall } from '../../core/types.js';
import type { MessageVectors, UnembeddedMessage, VectorHit } from '../store.js';
import { columnsOf, sqlLimit, type Sql } from './sql.js';
import type { PostgresVectorExtension } from './vector-extension.js';
import type { VectorIndexBuilds } from './vector-index-builds.js';

type PutOptions = Parameters<MessageVectors['put']>[0];
type NearestOptions = Parameters<MessageVectors['nearest']>[0];

interface Space {
  id: number;
  dimensions: number;
  table: string;
}

/**
 * A session is searched through the HNSW index, by default, once it holds this many numbers (vectors ×
 * their length) and at least `HNSW_FROM_VECTORS` vectors: below, the exact scan is as fast or faster and
 * finds the same as SQLite. Measured on 120,000 realistic chat messages (100-number word vectors, 2 cores): exact
 * p50 0.6 ms for a 1,000-message session, 11.5–14.7 ms for 20,000, 36 ms for 60,000; through the index
 * 5.2–5.7 ms for 20,000 and 60,000, finding 99 % and 100 % of the exact 20 nearest.
 */
const HNSW_FROM_NUMBERS = 2_000_000;
const HNSW_FROM_VECTORS = 5_000;
/** pgvector indexes vectors of at most this many numbers with HNSW; longer ones are always compared one by one. */
const HNSW_MAX_DIMENSIONS = 2000;
/** How long a session found small is taken to stay small before its size is looked at again (ms). */
const RECOUNT_MS = 60_000;
/** The index search's settings: keep scanning until the session's vectors are found, and widely enough. */
export const HNSW_SETTINGS = "SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', '200', true), set_config('hnsw.max_scan_tuples', '100000', true)";

/**
 * The nearest vectors of a session ($1 tenant, $2 session, $3 query, $4 last turn, $5 how many), compared
 * one by one (`exact`) or found through the HNSW index (`index`, under `HNSW_SETTINGS`): ordered by
 * distance alone, the index can give the nearest, and ties are put in order after.
 */
export function nearestSql(table: string, way: 'exact' | 'index'): string {
  const columns = `message_id AS id, turn, position, embedding <=> $3::vector AS distance FROM ${table} WHERE tenant_id = $1 AND session_id = $2 AND turn <= $4`;
  return way === 'exact'
    ? `SELECT ${columns} ORDER BY distance, position LIMIT $5`
    : `SELECT id, turn, distance FROM (SELECT ${columns} ORDER BY embedding <=> $3::vector LIMIT $5) AS nearest ORDER BY distance, position`;
}

export function vectorTable(spaceId: number): string {
  return `vectors_${String(Math.trunc(spaceId))}`;
}

/** A vector as pgvector reads it: "[0.1,0.2,…]" (a float4 printed by JavaScript reads back as the same float4). */
function vectorLiteral(vector: Float32Array): string {
  return `[${Array.from(vector, (value) => (Number.isFinite(value) ? String(value) : '0')).join(',')}]`;
}

async function createSpace(sql: Sql, tenantId: string, name: string, dimensions: number): Promise<Space> {
  const id = (await sql.query<{ id: number }>('INSERT INTO vector_spaces (tenant_id, space, dimensions) VALUES ($1, $2, $3) RETURNING id', [tenantId, name, dimensions])).rows[0]?.id ?? 0;
  const table = vectorTable(id);
  await sql.query(`CREATE TABLE ${table} (
      message_seq bigint PRIMARY KEY,
      message_id text COLLATE "C" NOT NULL,
      tenant_id text COLLATE "C" NOT NULL,
      session_id text COLLATE "C" NOT NULL,
      turn integer NOT NULL,
      position integer NOT NULL,
      embedding vector(${String(Math.trunc(dimensions))}) NOT NULL
    )`);
  await sql.query(`CREATE INDEX ${table}_session ON ${table} (tenant_id, session_id, turn)`);
  return { id, dimensions, table };
}

export interface MessageVectorsOptions {
  /** What the store found of pgvector (before it has connected, `NOT_CONNECTED`). */
  extension: () => PostgresVectorExtension;
  /** Resolves once the store has connected, finding that out. */
  connected: () => Promise<void>;
  /** From what size a session is searched through the HNSW index (see `PostgresStoreSettings.hnswFrom`). */
  hnswFrom?: { vectors?: number; numbers?: number };
  /** The spaces' HNSW indexes, built when a session first needs one. */
  indexes: VectorIndexBuilds;
  /** The time in ms (default: now). */
  now?: () => number;
}

export function createMessageVectors(sql: Sql, tenantId: string, options: MessageVectorsOptions): MessageVectors {
  const { extension, connected } = options;
  const fromVectors = options.hnswFrom?.vectors ?? HNSW_FROM_VECTORS;
  const fromNumbers = options.hnswFrom?.numbers ?? HNSW_FROM_NUMBERS;
  const now = options.now ?? Date.now;
  const spaces = new Map<string, Space>();
  const space = async (reader: Sql, name: string): Promise<Space | null> => {
    const known = spaces.get(name);
    if (known !== undefined) return known;
    const row = (await reader.query<{ id: number; dimensions: number }>('SELECT id, dimensions FROM vector_spaces WHERE tenant_id = $1 AND space = $2', [tenantId, name])).rows[0];
    return row === undefined ? null : { id: row.id, dimensions: row.dimensions, table: vectorTable(row.id) };
  };

  /** The position of the session's last message embedded in the space, or -1. */
  const embeddedThrough = async (sessionId: string, spaceId: number): Promise<number> =>
    (await sql.query<{ through: number }>('SELECT through_position AS through FROM vector_progress WHERE tenant_id = $1 AND session_id = $2 AND space_id = $3', [tenantId, sessionId, spaceId])).rows[0]?.through ?? -1;

  const put = ({ sessionId, space: name, dimensions, entries }: PutOptions): Promise<void> =>
    sql.write(async (write) => {
      if (entries.length === 0) return;
      const found = (await space(write, name)) ?? (await createSpace(write, tenantId, name, dimensions));
      if (found.dimensions !== dimensions) {
        throw new StrataError('STORE_FAILURE', `The vector space "${name}" holds vectors of ${String(found.dimensions)} numbers, not ${String(dimensions)}; an embedder that changes its length needs a new id.`, { details: { space: name } });
      }
      const ids = entries.map((entry) => entry.messageId);
      // By the (tenant, id) index, the session checked here (see messages.ts getMany).
      const located = await write.query<{ id: string; session_id: string; seq: string; turn: number; position: number }>('SELECT id, session_id, seq, turn, position FROM messages WHERE tenant_id = $1 AND id = ANY ($2::text[])', [tenantId, ids]);
      const places = new Map(located.rows.filter((row) => row.session_id === sessionId).map((row) => [row.id, row]));
      const rows: Array<[string, string, number, number, string]> = [];
      for (const { messageId, vector } of entries) {
        const place = places.get(messageId);
        if (place === undefined) throw new StrataError('STORE_FAILURE', `Cannot store a vector for message "${messageId}": it is not a message of session "${sessionId}".`, { details: { sessionId, messageId } });
        if (vector !== null && vector.length !== dimensions) throw new StrataError('STORE_FAILURE', `A vector of ${String(vector.length)} numbers came for a space of ${String(dimensions)}.`, { details: { space: name } });
        if (vector !== null) rows.push([place.seq, messageId, place.turn, place.position, vectorLiteral(vector)]);
      }
      await write.query(`DELETE FROM ${found.table} WHERE message_seq = ANY ($1::bigint[])`, [[...places.values()].map((row) => row.seq)]);
      if (rows.length > 0) {
        await write.query(
          `INSERT INTO ${found.table} (message_seq, message_id, tenant_id, session_id, turn, position, embedding)
           SELECT v.seq, v.id, $1, $2, v.turn, v.position, v.embedding::vector FROM unnest($3::bigint[], $4::text[], $5::int[], $6::int[], $7::text[]) AS v (seq, id, turn, position, embedding)`,
          [tenantId, sessionId, ...columnsOf(rows, 5)],
        );
      }
      const through = Math.max(...[...places.values()].map((row) => row.position));
      await write.query(
        `INSERT INTO vector_progress (tenant_id, session_id, space_id, through_position) VALUES ($1, $2, $3, $4)
         ON CONFLICT (tenant_id, session_id, space_id) DO UPDATE SET through_position = greatest(vector_progress.through_position, excluded.through_position)`,
        [tenantId, sessionId, found.id, through],
      );
      spaces.set(name, found);
    });

  /**
   * Per space and session: whether it is searched through the HNSW index, and when that was found. A large
   * session stays large (a session only grows); a small one is looked at again after `RECOUNT_MS`.
   */
  const sizes = new Map<string, { large: boolean; at: number }>();
  const searchedByIndex = async (sessionId: string, found: Space): Promise<boolean> => {
    const loaded = extension();
    if (!loaded.loaded || !loaded.hnsw || found.dimensions > HNSW_MAX_DIMENSIONS) return false;
    const key = `${String(found.id)}\u0000${sessionId}`;
    let size = sizes.get(key);
    if (size === undefined || (!size.large && now() - size.at > RECOUNT_MS)) {
      // The vectors stored, about: the messages embedded so far.
      const through = await embeddedThrough(sessionId, found.id);
      const count = through + 1;
      size = { large: count >= fromVectors && count * found.dimensions >= fromNumbers, at: now() };
      if (sizes.size >= 10_000) sizes.clear();
      sizes.set(key, size);
    }
    return size.large && (await options.indexes.ready(found.table));
  };

  const nearest = async ({ sessionId, space: name, vector, limit, maxTurn }: NearestOptions): Promise<VectorHit[]> => {
    const found = await space(sql, name);
    if (found === null || limit <= 0 || vector.length !== found.dimensions) return [];
    spaces.set(name, found);
    const wanted = Math.min(limit, 4096);
    const values = [tenantId, sessionId, vectorLiteral(vector), Math.min(maxTurn ?? 2_147_483_647, 2_147_483_647), wanted];
    type Row = { id: string; turn: number; distance: number | null };
    let rows: Row[] | null = null;
    if (await searchedByIndex(sessionId, found)) {
      rows = await sql.read(async (reader) => {
        await reader.query(HNSW_SETTINGS);
        return (await reader.query<Row>(nearestSql(found.table, 'index'), values)).rows;
      });
      // The index scan stops after HNSW_SETTINGS' tuples: a session that is a small share of its tenant's
      // vectors, or a turn bound far back, can leave it short. Then every vector is compared.
      if (rows.length < wanted) rows = null;
    }
    rows ??= (await sql.query<Row>(nearestSql(found.table, 'exact'), values)).rows;
    return rows.map((row) => ({ messageId: row.id, turn: row.turn, similarity: 1 - (row.distance ?? 1) }));
  };

  const pending = async ({ sessionId, space: name, limit }: { sessionId: string; space: string; limit: number }): Promise<UnembeddedMessage[]> => {
    const found = await space(sql, name);
    const through =
      found === null ? -1 : await embeddedThrough(sessionId, found.id);
    const rows = await sql.query<{ id: string; position: number; content: string; tool_calls: string | null }>(
      'SELECT id, position, content, tool_calls FROM messages WHERE tenant_id = $1 AND session_id = $2 AND position > $3 ORDER BY position LIMIT $4',
      [tenantId, sessionId, through, sqlLimit(Math.max(0, limit))],
    );
    return rows.rows.map((row) => ({
      messageId: row.id,
      position: row.position,
      text: messageText(row.tool_calls === null ? { content: row.content } : { content: row.content, toolCalls: JSON.parse(row.tool_calls) as ToolCall[] }),
    }));
  };

  /** Runs `work` once pgvector is known to be there; until the store has connected, it is assumed to be. */
  const used =
    <A, R>(work: (options: A) => Promise<R>) =>
    async (options: A): Promise<R> => {
      await connected();
      const found = extension();
      if (!found.loaded) throw new StrataError('STORE_FAILURE', `This PostgreSQL store keeps no vectors: the pgvector extension could not be used (${found.reason}). Install pgvector on the server, or set STRATA_RECALL=lexical.`);
      return work(options);
    };
  return {
    get available() {
      const found = extension();
      return found.loaded || found.reason === NOT_CONNECTED;
    },
    pending: used(pending),
    put: used(put),
    nearest: used(nearest),
  };
}

/** Delete the vectors of sessions about to be deleted, from every space of the tenant. */
export async function deleteSessionVectors(sql: Sql, tenantId: string, sessionIds: readonly string[]): Promise<void> {
  if (sessionIds.length === 0) return;
  const spaces = await sql.query<{ id: number }>('SELECT id FROM vector_spaces WHERE tenant_id = $1', [tenantId]);
  for (const { id } of spaces.rows) await sql.query(`DELETE FROM ${vectorTable(id)} WHERE tenant_id = $1 AND session_id = ANY ($2::text[])`, [tenantId, sessionIds]);
}

/** What the extension check says before the store has connected. */
export const NOT_CONNECTED = 'the store has not connected yet';

/**
 * The SQLite vector index: a sqlite-vec `vec0` table per space of a tenant (vector_spaces names it),
 * partitioned by session so a search reads only that session's vectors, with each message's turn kept
 * beside its vector so a search can stop at a turn. A row's rowid is its message's `seq`. How far each
 * session is embedded is one row of vector_progress.
 */
import type Database from 'better-sqlite3';
import { StrataError } from '../../core/errors.js';
import { messageText } from '../../core/tool-calls.js';
import type { ToolCall } from '../../core/types.js';
import type { MessageVectors, UnembeddedMessage, VectorHit } from '../store.js';
import { prepareMessagePlaces } from './message-places.js';
import type { Run } from './run.js';
import { createVectorCells, type CellTable } from './vector-cells.js';
import type { VectorExtension } from './vector-extension.js';

type PutOptions = Parameters<MessageVectors['put']>[0];
type NearestOptions = Parameters<MessageVectors['nearest']>[0];

interface SpaceStatements extends Omit<CellTable, 'id'> {
  remove: Database.Statement<[bigint]>;
  insert: Database.Statement<[bigint, string, bigint, Float32Array]>;
  nearest: Database.Statement;
  nearestUpTo: Database.Statement;
}

interface Space {
  id: number;
  dimensions: number;
  table: string;
}

function vectorTable(spaceId: number): string {
  return `vectors_${String(spaceId)}`;
}

/**
 * Vectors per chunk of a space table. sqlite-vec allocates a chunk whole for each partition (session),
 * so its default of 1,024 gave a one-message session about 400 KB at 100 dimensions (100 one-turn
 * sessions: 43 MB of file; at 32, 1.8 MB). The price is paid by large sessions: a query read of a
 * 10,000-message session takes about 3–4 ms more at p50 (npm run bench:recall, chunks of 128 no
 * better than 32); most sessions are short, so room wins.
 */
const CHUNK_SIZE = 32;

/**
 * sqlite-vec finds a partition's chunks by reading its table of chunks whole: a search of one session paid
 * for every chunk of the space, and a session filed in cells (vector-cells.ts) paid it once per cell read.
 * This index makes it a seek (20 cells of 333 vectors among 300: 9.2 -> 4.5 ms, scratch measure).
 */
function indexChunks(db: Database.Database, table: string): void {
  db.exec(`CREATE INDEX IF NOT EXISTS ${table}_chunks_by_partition ON ${table}_chunks (partition00, chunk_id)`);
}

function createSpaceTable(db: Database.Database, table: string, dimensions: number): void {
  db.exec(`CREATE VIRTUAL TABLE ${table} USING vec0 (session_id TEXT PARTITION KEY, turn INTEGER, embedding FLOAT[${String(dimensions)}] distance_metric=cosine, chunk_size=${String(CHUNK_SIZE)})`);
  indexChunks(db, table);
}

/** Index the chunks of space tables made before `indexChunks` (call with the extension loaded, before any vector use). */
export function indexVectorChunks(db: Database.Database): void {
  const ids = db.prepare<[], number>('SELECT id FROM vector_spaces').pluck().all();
  for (const id of ids) indexChunks(db, vectorTable(id));
}

function unavailable(reason: string): StrataError {
  return new StrataError('STORE_FAILURE', `This SQLite store keeps no vectors: the sqlite-vec extension did not load (${reason}). Install the optional dependency sqlite-vec, or set STRATA_RECALL=lexical.`);
}

/** How a tenant's vector index is kept: `cellsFrom` is a session's vectors before they are split into cells (vector-cells.ts). */
export interface VectorIndexOptions {
  beforeUse?: () => void;
  cellsFrom?: number;
}

export function createMessageVectors(db: Database.Database, tenantId: string, run: Run, extension: VectorExtension, options: VectorIndexOptions = {}): MessageVectors {
  const { beforeUse = () => undefined } = options;
  const cells = createVectorCells(db, tenantId, options.cellsFrom);
  const findSpace = db.prepare<[string, string], { id: number; dimensions: number }>('SELECT id, dimensions FROM vector_spaces WHERE tenant_id = ? AND space = ?');
  const addSpace = db.prepare<[string, string, number]>('INSERT INTO vector_spaces (tenant_id, space, dimensions) VALUES (?, ?, ?)');
  const progress = db.prepare<[string, string, number], number>('SELECT through_position FROM vector_progress WHERE tenant_id = ? AND session_id = ? AND space_id = ?').pluck();
  const advance = db.prepare<[string, string, number, number]>(
    `INSERT INTO vector_progress (tenant_id, session_id, space_id, through_position) VALUES (?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET through_position = max(through_position, excluded.through_position)`,
  );
  const after = db.prepare<[string, string, number, number], [string, number, string, string | null]>(
    'SELECT id, position, content, tool_calls FROM messages WHERE tenant_id = ? AND session_id = ? AND position > ? ORDER BY position LIMIT ?',
  ).raw(true);
  const located = db.prepare<[string, string, string], [number, number, number]>('SELECT seq, turn, position FROM messages WHERE tenant_id = ? AND session_id = ? AND id = ?').raw(true);
  const placed = prepareMessagePlaces(db);
  const spaces = new Map<string, Space>();
  const statements = new Map<string, SpaceStatements>();
  /** A space table's statements, prepared once. */
  const prepared = (table: string): SpaceStatements => {
    let found = statements.get(table);
    if (found === undefined) {
      const knn = `SELECT rowid, distance FROM ${table} WHERE embedding MATCH ? AND k = ? AND session_id = ?`;
      found = {
        read: db.prepare<[bigint], [string, number, Buffer]>(`SELECT session_id, turn, embedding FROM ${table} WHERE rowid = ?`).raw(true),
        remove: db.prepare<[bigint]>(`DELETE FROM ${table} WHERE rowid = ?`),
        insert: db.prepare<[bigint, string, bigint, Float32Array]>(`INSERT INTO ${table} (rowid, session_id, turn, embedding) VALUES (?, ?, ?, ?)`),
        nearest: db.prepare(`${knn} ORDER BY distance`).raw(true),
        nearestUpTo: db.prepare(`${knn} AND turn <= ? ORDER BY distance`).raw(true),
      };
      statements.set(table, found);
    }
    return found;
  };

  const space = (name: string): Space | null => {
    const known = spaces.get(name);
    if (known !== undefined) return known;
    const row = findSpace.get(tenantId, name);
    if (row === undefined) return null;
    const found = { id: row.id, dimensions: row.dimensions, table: vectorTable(row.id) };
    spaces.set(name, found);
    return found;
  };

  const createSpace = (name: string, dimensions: number): Space => {
    const id = Number(addSpace.run(tenantId, name, dimensions).lastInsertRowid);
    const table = vectorTable(id);
    createSpaceTable(db, table, dimensions);
    return { id, dimensions, table };
  };

  const putAll = db.transaction(({ sessionId, space: name, dimensions, entries }: PutOptions): Space | null => {
    if (entries.length === 0) return null;
    const found = space(name) ?? createSpace(name, dimensions);
    if (found.dimensions !== dimensions) {
      throw new StrataError('STORE_FAILURE', `The vector space "${name}" holds vectors of ${String(found.dimensions)} numbers, not ${String(dimensions)}; an embedder that changes its length needs a new id.`, { details: { space: name } });
    }
    const statements = prepared(found.table);
    const { remove, insert } = statements;
    const filing = cells.filing({ id: found.id, ...statements }, sessionId);
    let through = -1;
    for (const { messageId, vector } of entries) {
      const row = located.get(tenantId, sessionId, messageId);
      if (row === undefined) throw new StrataError('STORE_FAILURE', `Cannot store a vector for message "${messageId}": it is not a message of session "${sessionId}".`, { details: { sessionId, messageId } });
      if (vector !== null && vector.length !== dimensions) throw new StrataError('STORE_FAILURE', `A vector of ${String(vector.length)} numbers came for a space of ${String(dimensions)}.`, { details: { space: name } });
      const [seq, turn, position] = row;
      remove.run(BigInt(seq));
      if (vector !== null) insert.run(BigInt(seq), filing.partitionOf(vector), BigInt(turn), vector);
      through = Math.max(through, position);
    }
    advance.run(tenantId, sessionId, found.id, through);
    // A large session's vectors are filed in cells: a step of that work with every write (vector-cells.ts).
    filing.upkeep((progress.get(tenantId, sessionId, found.id) ?? through) + 1);
    return found;
  });
  /** Store, then remember the space: only once the transaction that may have made it has committed. */
  const put = (options: PutOptions): void => {
    const stored = putAll(options);
    if (stored !== null) spaces.set(options.space, stored);
  };

  const nearest = ({ sessionId, space: name, vector, limit, maxTurn }: NearestOptions): VectorHit[] => {
    const found = space(name);
    if (found === null || limit <= 0 || vector.length !== found.dimensions) return [];
    const k = Math.min(limit, 4096);
    const statement = prepared(found.table);
    const rows: Array<[number, number]> = [];
    for (const partition of cells.partitionsToSearch(found.id, sessionId, vector)) {
      const args = [vector, BigInt(k), partition] as const;
      rows.push(...((maxTurn === undefined ? statement.nearest.all(...args) : statement.nearestUpTo.all(...args, BigInt(maxTurn))) as Array<[number, number]>));
    }
    // The nearest of every partition read: the closest `k` of them all.
    rows.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    rows.length = Math.min(rows.length, k);
    const distances = new Map(rows);
    const hits = placed.all(JSON.stringify(rows.map(([rowid]) => rowid)), tenantId, sessionId).map(([seq, id, turn, position]) => ({ id, turn, position, distance: distances.get(seq) ?? 1 }));
    hits.sort((a, b) => a.distance - b.distance || a.position - b.position);
    return hits.map((hit) => ({ messageId: hit.id, turn: hit.turn, similarity: 1 - hit.distance }));
  };

  const pending = ({ sessionId, space: name, limit }: { sessionId: string; space: string; limit: number }): UnembeddedMessage[] => {
    const found = space(name);
    const through = found === null ? -1 : (progress.get(tenantId, sessionId, found.id) ?? -1);
    return after.all(tenantId, sessionId, through, Math.max(0, limit)).map(([messageId, position, content, calls]) => ({
      messageId,
      position,
      text: messageText(calls === null ? { content } : { content, toolCalls: JSON.parse(calls) as ToolCall[] }),
    }));
  };

  if (!extension.loaded) {
    const fail = (): Promise<never> => Promise.reject(unavailable(extension.reason));
    return { available: false, pending: fail, put: fail, nearest: fail };
  }
  const used: Run = (work) =>
    run(() => {
      beforeUse();
      try {
        return work();
      } catch (error) {
        // Another process rebuilt a space table under a new id (resizeVectorChunks): look the spaces up again.
        if (!(error instanceof Error) || !/no such table: (?:main\.)?vectors_/u.test(error.message)) throw error;
        spaces.clear();
        statements.clear();
        return work();
      }
    });
  return {
    available: true,
    pending: (options) => used(() => pending(options)),
    put: (options) => used(() => put(options)),
    nearest: (options) => used(() => nearest(options)),
  };
}

/**
 * Delete the vectors of a session's messages from every space of the tenant (before its messages go).
 * Without the extension the vec0 tables cannot be written: the rows are noted as orphans instead, and
 * the next open with the extension removes them (`purgeOrphanVectors`).
 */
export function deleteSessionVectors(db: Database.Database, tenantId: string, sessionId: string, extension: VectorExtension): void {
  const ids = db.prepare<[string], number>('SELECT id FROM vector_spaces WHERE tenant_id = ?').pluck().all(tenantId);
  for (const id of ids) {
    const sql = extension.loaded
      ? `DELETE FROM ${vectorTable(id)} WHERE rowid IN (SELECT seq FROM messages WHERE tenant_id = ? AND session_id = ?)`
      : `INSERT OR IGNORE INTO vector_orphans (space_id, seq) SELECT ${String(id)}, seq FROM messages WHERE tenant_id = ? AND session_id = ?`;
    db.prepare(sql).run(tenantId, sessionId);
  }
  db.prepare('DELETE FROM vector_cells WHERE tenant_id = ? AND session_id = ?').run(tenantId, sessionId);
}

/** Remove the vectors noted as orphans by a process that had no extension (call with it loaded). */
export function purgeOrphanVectors(db: Database.Database): void {
  const spaces = db.prepare<[], number>('SELECT DISTINCT space_id FROM vector_orphans').pluck().all();
  if (spaces.length === 0) return;
  db.transaction(() => {
    for (const id of spaces) {
      db.prepare(`DELETE FROM ${vectorTable(id)} WHERE rowid IN (SELECT seq FROM vector_orphans WHERE space_id = ?)`).run(id);
      db.prepare('DELETE FROM vector_orphans WHERE space_id = ?').run(id);
    }
  })();
}

/**
 * Rebuild the space tables made with sqlite-vec's default chunks of 1,024 (before `CHUNK_SIZE`), keeping
 * every vector and how far each session is embedded (call with the extension loaded, before any vector
 * use). A vec0 table cannot be renamed, so each moves to a new space id: one transaction per space.
 */
export function resizeVectorChunks(db: Database.Database): void {
  const spaces = db.prepare<[], { id: number; tenantId: string; space: string; dimensions: number }>('SELECT id, tenant_id AS tenantId, space, dimensions FROM vector_spaces').all();
  const definition = db.prepare<[string], string | null>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").pluck();
  for (const old of spaces) {
    db.transaction(() => {
      // Checked inside the write: another process may have rebuilt it since the list was read.
      const sql = definition.get(vectorTable(old.id));
      if (typeof sql !== 'string' || sql.includes('chunk_size')) return;
      const id = Number(db.prepare<[string, string, number]>('INSERT INTO vector_spaces (tenant_id, space, dimensions) VALUES (?, ?, ?)').run(old.tenantId, `${old.space}\u0000resized`, old.dimensions).lastInsertRowid);
      createSpaceTable(db, vectorTable(id), old.dimensions);
      db.exec(`INSERT INTO ${vectorTable(id)} (rowid, session_id, turn, embedding) SELECT rowid, session_id, turn, embedding FROM ${vectorTable(old.id)}`);
      db.prepare('UPDATE vector_progress SET space_id = ? WHERE space_id = ?').run(id, old.id);
      db.prepare('UPDATE vector_orphans SET space_id = ? WHERE space_id = ?').run(id, old.id);
      db.prepare('UPDATE vector_cells SET space_id = ? WHERE space_id = ?').run(id, old.id);
      db.exec(`DROP TABLE ${vectorTable(old.id)}`);
      db.prepare('DELETE FROM vector_spaces WHERE id = ?').run(old.id);
      db.prepare('UPDATE vector_spaces SET space = ? WHERE id = ?').run(old.space, id);
    }).immediate();
  }
}

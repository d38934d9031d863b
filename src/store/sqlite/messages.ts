import type Database from 'better-sqlite3';
import type { Message } from '../../core/types.js';
import type { MessageRepository } from '../store.js';
import { toMessage, type MessageRow } from '../rows.js';
import { placeholders } from './rows.js';
import type { Run } from './run.js';
import { createMessageWrites } from './message-writes.js';
import type { TenantSearchIndex } from './search-index.js';
import type { TurnJournal } from './turn-changes.js';

const COLUMNS = `id, session_id, turn, position, role, speaker, content, tier1, tier2,
  tier1_tokens, tier2_tokens, tier3_tokens, required_tier, created_at, sent_at, external_id, tool_calls, tool_call_id`;

export function createMessageRepository(db: Database.Database, tenantId: string, run: Run, index: TenantSearchIndex, journal: TurnJournal): MessageRepository {
  const writes = createMessageWrites(db, tenantId, index, journal);
  const byTurns = db.prepare<[string, string, number, number], MessageRow>(
    `SELECT ${COLUMNS} FROM messages WHERE tenant_id = ? AND session_id = ? AND turn BETWEEN ? AND ? ORDER BY turn, position`,
  );
  const list = db.prepare<[string, string, number, number], MessageRow>(
    `SELECT ${COLUMNS} FROM messages WHERE tenant_id = ? AND session_id = ? ORDER BY position LIMIT ? OFFSET ?`,
  );
  // The turns come as one JSON array parameter, so a document of any size is one statement; each turn
  // reads its messages in order only until one has a time (the first, as a rule), not all of them.
  const sentTimes = db
    .prepare<[string, string, string], [number, string | null]>(
      `SELECT turns.value, (SELECT sent_at FROM messages
          WHERE tenant_id = ? AND session_id = ? AND turn = turns.value AND sent_at IS NOT NULL ORDER BY position LIMIT 1)
        FROM (SELECT DISTINCT value FROM json_each(?)) AS turns`,
    )
    .raw(true);
  const countUpToTurn = db
    .prepare<[string, string, number, string, string], number | undefined>(
      `SELECT message_count - (SELECT count(*) FROM messages WHERE tenant_id = ? AND session_id = ? AND turn > ?)
         FROM sessions WHERE tenant_id = ? AND id = ?`,
    )
    .pluck();
  const last = db.prepare<[string, string], { turn: number; position: number }>(
    'SELECT turn, position FROM messages WHERE tenant_id = ? AND session_id = ? ORDER BY position DESC LIMIT 1',
  );
  const manyStatements = new Map<number, Database.Statement<unknown[], MessageRow>>();
  const many = (count: number): Database.Statement<unknown[], MessageRow> => {
    let statement = manyStatements.get(count);
    if (statement === undefined) {
      statement = db.prepare<unknown[], MessageRow>(
        `SELECT ${COLUMNS} FROM messages WHERE tenant_id = ? AND id IN (${placeholders(count)})`,
      );
      if (manyStatements.size < 64) manyStatements.set(count, statement);
    }
    return statement;
  };

  return {
    append: ({ sessionId, messages, updatedAt }) => run(() => writes.append(sessionId, messages, updatedAt)),
    updateTiers: ({ sessionId, updates }) => run(() => writes.updateTiers(sessionId, updates)),
    raiseTier: ({ sessionId, messageId, tier, turn }) =>
      run(() => {
        if (!writes.raiseTier(sessionId, messageId, tier, turn)) return null;
        const row = many(1).get(tenantId, messageId);
        return row === undefined ? null : toMessage(row);
      }),
    lowerTiers: ({ sessionId, raisedBefore }) => run(() => writes.lowerTiers(sessionId, raisedBefore)),
    listByTurns: ({ sessionId, fromTurn, toTurn }) =>
      run(() => byTurns.all(tenantId, sessionId, fromTurn, toTurn).map(toMessage)),
    list: ({ sessionId, limit, offset }) =>
      run(() => list.all(tenantId, sessionId, limit ?? -1, offset ?? 0).map(toMessage)),
    getMany: ({ sessionId, messageIds }) =>
      run(() => {
        const found: Message[] = [];
        for (let start = 0; start < messageIds.length; start += 500) {
          const chunk = messageIds.slice(start, start + 500);
          // Looked up by the (tenant, id) index; the session is checked here, which is far cheaper
          // than letting the planner scan the session's rows.
          for (const row of many(chunk.length).all(tenantId, ...chunk)) if (row.session_id === sessionId) found.push(toMessage(row));
        }
        return found.sort((a, b) => a.position - b.position);
      }),
    // (The session's count less the messages after the turn: the few newest rows of the index, not all.)
    countUpToTurn: ({ sessionId, toTurn }) => run(() => countUpToTurn.get(tenantId, sessionId, toTurn, tenantId, sessionId) ?? 0),
    sentTimes: ({ sessionId, turns }) =>
      run(() => {
        const times = new Map<number, string>();
        if (turns.length === 0) return times;
        for (const [turn, sentAt] of sentTimes.all(tenantId, sessionId, JSON.stringify(turns))) if (sentAt !== null) times.set(turn, sentAt);
        return times;
      }),
    last: ({ sessionId }) =>
      run(() => {
        const row = last.get(tenantId, sessionId);
        return { turn: row?.turn ?? 0, position: row?.position ?? -1 };
      }),
  };
}

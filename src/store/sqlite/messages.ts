import type Database from 'better-sqlite3';
import type { Message } from '../../core/types.js';
import type { MessageRepository } from '../store.js';
import { toMessage, type MessageRow } from '../rows.js';
import type { MessageIdCache } from './message-id-cache.js';
import { placeholders } from './rows.js';
import type { Run } from './run.js';
import { sessionToken, type TenantSearchIndex } from './search-index.js';

const COLUMNS = `id, session_id, turn, position, role, speaker, content, tier1, tier2,
  tier1_tokens, tier2_tokens, tier3_tokens, required_tier, created_at, sent_at, external_id`;

export function createMessageRepository(db: Database.Database, tenantId: string, run: Run, index: TenantSearchIndex, ids: MessageIdCache): MessageRepository {
  const insert = db.prepare(`INSERT INTO messages
    (tenant_id, session_id, id, turn, position, role, speaker, content, tier1, tier2,
     tier1_tokens, tier2_tokens, tier3_tokens, required_tier, created_at, sent_at, external_id)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const bump = db.prepare(`UPDATE sessions SET
      message_count = message_count + ?,
      token_count = token_count + ?,
      turn_count = max(turn_count, ?),
      updated_at = ?
    WHERE tenant_id = ? AND id = ?`);
  const updateTiers = db.prepare(`UPDATE messages SET tier1 = ?, tier2 = ?, tier1_tokens = ?, tier2_tokens = ?,
      required_tier = ?
    WHERE tenant_id = ? AND session_id = ? AND id = ?`);
  const byTurns = db.prepare<[string, string, number, number], MessageRow>(
    `SELECT ${COLUMNS} FROM messages WHERE tenant_id = ? AND session_id = ? AND turn BETWEEN ? AND ? ORDER BY turn, position`,
  );
  const list = db.prepare<[string, string, number, number], MessageRow>(
    `SELECT ${COLUMNS} FROM messages WHERE tenant_id = ? AND session_id = ? ORDER BY position LIMIT ? OFFSET ?`,
  );
  // The turns come as one JSON array parameter, so a document of any size is one statement.
  const sentTimes = db.prepare<[string, string, string], { turn: number; sent_at: string }>(
    `SELECT turn, sent_at FROM messages
      WHERE tenant_id = ? AND session_id = ? AND turn IN (SELECT value FROM json_each(?)) AND sent_at IS NOT NULL
      ORDER BY turn, position`,
  );
  const last = db.prepare<[string, string], { turn: number; position: number }>(
    'SELECT turn, position FROM messages WHERE tenant_id = ? AND session_id = ? ORDER BY position DESC LIMIT 1',
  );
  const indexStatements = new Map<string, Database.Statement<[number | bigint, string, string, string]>>();
  const indexInsert = (): Database.Statement<[number | bigint, string, string, string]> => {
    const table = index.ensure();
    let statement = indexStatements.get(table);
    if (statement === undefined) {
      statement = db.prepare<[number | bigint, string, string, string]>(`INSERT INTO ${table} (rowid, speaker, content, session) VALUES (?, ?, ?, ?)`);
      indexStatements.set(table, statement);
    }
    return statement;
  };
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
    append: ({ sessionId, messages, updatedAt }) =>
      run(() => {
        let tokens = 0;
        let maxTurn = 0;
        const indexed = indexInsert();
        const token = sessionToken(sessionId);
        for (const message of messages) {
          const { lastInsertRowid } = insert.run(
            tenantId,
            sessionId,
            message.id,
            message.turn,
            message.position,
            message.role,
            message.speaker,
            message.content,
            message.tier1,
            message.tier2,
            message.tokens.tier1,
            message.tokens.tier2,
            message.tokens.tier3,
            message.requiredTier,
            message.createdAt,
            message.sentAt,
            message.externalId,
          );
          indexed.run(lastInsertRowid, message.speaker ?? '', message.content, token);
          tokens += message.tokens.tier3;
          maxTurn = Math.max(maxTurn, message.turn);
        }
        bump.run(messages.length, tokens, maxTurn, updatedAt, tenantId, sessionId);
      }),
    updateTiers: ({ sessionId, updates }) =>
      run(() => {
        for (const update of updates) {
          updateTiers.run(
            update.tier1,
            update.tier2,
            update.tokens.tier1,
            update.tokens.tier2,
            update.requiredTier,
            tenantId,
            sessionId,
            update.messageId,
          );
        }
      }),
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
    listIds: ({ sessionId, toTurn }) => run(() => ids.idsUpTo(sessionId, toTurn)),
    sentTimes: ({ sessionId, turns }) =>
      run(() => {
        const times = new Map<number, string>();
        if (turns.length === 0) return times;
        for (const row of sentTimes.all(tenantId, sessionId, JSON.stringify([...new Set(turns)]))) if (!times.has(row.turn)) times.set(row.turn, row.sent_at);
        return times;
      }),
    last: ({ sessionId }) =>
      run(() => {
        const row = last.get(tenantId, sessionId);
        return { turn: row?.turn ?? 0, position: row?.position ?? -1 };
      }),
  };
}

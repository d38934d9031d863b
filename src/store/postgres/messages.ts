import type { MessageRepository } from '../store.js';
import { toMessage, type MessageRow } from '../rows.js';
import { appendMessages, lowerTiers, raiseTier, updateTiers } from './message-writes.js';
import { sqlLimit, type Sql } from './sql.js';

const COLUMNS = `id, session_id, turn, position, role, speaker, content, tier1, tier2,
  tier1_tokens, tier2_tokens, tier3_tokens, required_tier, created_at, sent_at, external_id, tool_calls, tool_call_id`;

export function createMessageRepository(sql: Sql, tenantId: string): MessageRepository {
  const rows = async (text: string, values: readonly unknown[]): Promise<MessageRow[]> => (await sql.query<MessageRow>(text, values)).rows;
  return {
    append: ({ sessionId, messages, updatedAt }) => sql.write((write) => appendMessages(write, tenantId, sessionId, messages, updatedAt)),
    updateTiers: ({ sessionId, updates }) => sql.write((write) => updateTiers(write, tenantId, sessionId, updates)),
    raiseTier: ({ sessionId, messageId, tier, turn }) =>
      sql.write(async (write) => {
        if (!(await raiseTier(write, tenantId, sessionId, messageId, tier, turn))) return null;
        const row = (await write.query<MessageRow>(`SELECT ${COLUMNS} FROM messages WHERE tenant_id = $1 AND id = $2`, [tenantId, messageId])).rows[0];
        return row === undefined ? null : toMessage(row);
      }),
    lowerTiers: ({ sessionId, raisedBefore }) => sql.write((write) => lowerTiers(write, tenantId, sessionId, raisedBefore)),
    listByTurns: async ({ sessionId, fromTurn, toTurn }) =>
      (await rows(`SELECT ${COLUMNS} FROM messages WHERE tenant_id = $1 AND session_id = $2 AND turn BETWEEN $3 AND $4 ORDER BY turn, position`, [tenantId, sessionId, fromTurn, toTurn])).map(toMessage),
    list: async ({ sessionId, limit, offset }) =>
      (await rows(`SELECT ${COLUMNS} FROM messages WHERE tenant_id = $1 AND session_id = $2 ORDER BY position LIMIT $3 OFFSET $4`, [tenantId, sessionId, sqlLimit(limit), Math.max(0, Math.floor(offset ?? 0))])).map(
        toMessage,
      ),
    // Looked up by the (tenant, id) index and the session checked here: with the session in the query, a
    // planner may scan the session's rows instead (as SQLite's does).
    getMany: async ({ sessionId, messageIds }) => {
      if (messageIds.length === 0) return [];
      const found = await rows(`SELECT ${COLUMNS} FROM messages WHERE tenant_id = $1 AND id = ANY ($2::text[])`, [tenantId, messageIds]);
      return found.filter((row) => row.session_id === sessionId).sort((a, b) => a.position - b.position).map(toMessage);
    },
    // The session's count less the messages after the turn: the few newest rows of the index, not all.
    countUpToTurn: async ({ sessionId, toTurn }) => {
      const found = await sql.query<{ count: number }>(
        `SELECT message_count - (SELECT count(*) FROM messages WHERE tenant_id = $1 AND session_id = $2 AND turn > $3)::integer AS count
           FROM sessions WHERE tenant_id = $1 AND id = $2`,
        [tenantId, sessionId, toTurn],
      );
      return found.rows[0]?.count ?? 0;
    },
    sentTimes: async ({ sessionId, turns }) => {
      const times = new Map<number, string>();
      if (turns.length === 0) return times;
      const found = await sql.query<{ turn: number; sent_at: string | null }>(
        `SELECT t.turn, (SELECT sent_at FROM messages WHERE tenant_id = $1 AND session_id = $2 AND turn = t.turn AND sent_at IS NOT NULL ORDER BY position LIMIT 1) AS sent_at
           FROM (SELECT DISTINCT unnest($3::int[]) AS turn) AS t`,
        [tenantId, sessionId, turns],
      );
      for (const row of found.rows) if (row.sent_at !== null) times.set(row.turn, row.sent_at);
      return times;
    },
    last: async ({ sessionId }) => {
      const row = (await sql.query<{ turn: number; position: number }>('SELECT turn, position FROM messages WHERE tenant_id = $1 AND session_id = $2 ORDER BY position DESC LIMIT 1', [tenantId, sessionId])).rows[0];
      return { turn: row?.turn ?? 0, position: row?.position ?? -1 };
    },
  };
}

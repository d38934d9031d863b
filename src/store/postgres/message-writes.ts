/**
 * The writes of the PostgreSQL message repository: appending messages (with their search terms, the
 * session's counters bumped) as one statement per batch, and changing their tiers. Each runs inside the
 * caller's `write`, so each call is one transaction under the tenant's lock.
 */
import { messageText } from '../../core/tool-calls.js';
import type { Message, Tier } from '../../core/types.js';
import { messageValues } from '../rows.js';
import type { TierUpdate } from '../store.js';
import { countTerms } from './search-statistics.js';
import { searchTerms } from './search-terms.js';
import { columnsOf, type Sql } from './sql.js';
import { journaled } from './turn-changes.js';

/** Rows per INSERT: a batch's columns travel as one array each. */
const BATCH = 1000;

/** The columns of an appended message, in the order of the arrays `appendRows` passes. */
const INSERTED = `(tenant_id, session_id, id, turn, position, role, speaker, content, tier1, tier2, tier1_tokens, tier2_tokens, tier3_tokens,
  required_tier, created_at, sent_at, external_id, tool_calls, tool_call_id, search_vector, search_length)`;

const UNNESTED = `SELECT $1, $2, * FROM unnest($3::text[], $4::int[], $5::int[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[],
  $11::int[], $12::int[], $13::int[], $14::smallint[], $15::text[], $16::text[], $17::text[], $18::text[], $19::text[], $20::tsvector[], $21::int[])`;

/** One INSERT of up to `BATCH` messages; gives their search length. */
async function appendRows(sql: Sql, tenantId: string, sessionId: string, messages: readonly Message[]): Promise<number> {
  const terms = messages.map((message) => searchTerms(message.speaker, messageText(message)));
  const rows = messages.map((message, index) => [...messageValues(message), terms[index]?.vector, terms[index]?.length]);
  await sql.query(`INSERT INTO messages ${INSERTED} ${UNNESTED}`, [tenantId, sessionId, ...columnsOf(rows, 19)]);
  await countTerms(sql, tenantId, terms.map((term) => term.vector));
  return terms.reduce((sum, term) => sum + term.length, 0);
}

export async function appendMessages(sql: Sql, tenantId: string, sessionId: string, messages: readonly Message[], updatedAt: string): Promise<void> {
  let length = 0;
  for (let start = 0; start < messages.length; start += BATCH) length += await appendRows(sql, tenantId, sessionId, messages.slice(start, start + BATCH));
  const tokens = messages.reduce((sum, message) => sum + message.tokens.tier3, 0);
  const lastTurn = messages.reduce((turn, message) => Math.max(turn, message.turn), 0);
  await sql.query(
    `UPDATE sessions SET message_count = message_count + $1, token_count = token_count + $2, turn_count = greatest(turn_count, $3),
       search_length = search_length + $4, updated_at = $5 WHERE tenant_id = $6 AND id = $7`,
    [messages.length, tokens, lastTurn, length, updatedAt, tenantId, sessionId],
  );
}

/** A raised message takes the manager's tier as the one to return to, and stays raised meanwhile. */
export async function updateTiers(sql: Sql, tenantId: string, sessionId: string, updates: readonly TierUpdate[]): Promise<void> {
  if (updates.length === 0) return;
  // Each message is found by the (tenant, id) index, its session checked after: a plan that scans the
  // session's index for every update (as a planner with stale statistics chooses during an import) took
  // 5 ms an update on a 10,000-message session.
  await sql.query(
    journaled(
      `WITH target AS MATERIALIZED (
       SELECT found.seq, u.* FROM unnest($3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::smallint[]) AS u (id, tier1, tier2, tier1_tokens, tier2_tokens, tier)
         CROSS JOIN LATERAL (SELECT seq, session_id FROM messages WHERE tenant_id = $1 AND id = u.id) AS found
        WHERE found.session_id = $2
     )
     UPDATE messages AS m SET tier1 = t.tier1, tier2 = t.tier2, tier1_tokens = t.tier1_tokens, tier2_tokens = t.tier2_tokens,
        required_tier = CASE WHEN m.default_tier IS NULL THEN t.tier ELSE greatest(m.required_tier, t.tier) END,
        default_tier = CASE WHEN m.default_tier IS NULL THEN NULL ELSE t.tier END
       FROM target AS t
      WHERE m.seq = t.seq
      RETURNING m.turn`,
      '$1',
      '$2',
    ),
    [tenantId, sessionId, ...columnsOf(updates.map((update) => [update.messageId, update.tier1, update.tier2, update.tokens.tier1, update.tokens.tier2, update.requiredTier]), 6)],
  );
}

/** Asked again, a raised message keeps its tier and is kept longer; below the tier, it is raised. True when the session holds the message. */
export async function raiseTier(sql: Sql, tenantId: string, sessionId: string, messageId: string, tier: Tier, turn: number): Promise<boolean> {
  const changed = await sql.query(
    journaled(
      `UPDATE messages SET
        default_tier = CASE WHEN required_tier >= $1::smallint AND default_tier IS NULL THEN NULL ELSE coalesce(default_tier, required_tier) END,
        raised_at_turn = CASE WHEN required_tier >= $1::smallint AND default_tier IS NULL THEN NULL ELSE $2::integer END,
        required_tier = greatest(required_tier, $1::smallint)
      WHERE seq = (SELECT seq FROM messages WHERE tenant_id = $3 AND id = $5) AND session_id = $4
      RETURNING turn`,
      '$3',
      '$4',
    ),
    [tier, turn, tenantId, sessionId, messageId],
  );
  return changed.rowCount !== 0;
}

export async function lowerTiers(sql: Sql, tenantId: string, sessionId: string, raisedBefore: number): Promise<number[]> {
  const lowered = await sql.query<{ turn: number }>(
    journaled(
      `UPDATE messages SET required_tier = default_tier, default_tier = NULL, raised_at_turn = NULL
        WHERE tenant_id = $1 AND session_id = $2 AND raised_at_turn < $3 RETURNING turn`,
      '$1',
      '$2',
    ),
    [tenantId, sessionId, raisedBefore],
  );
  return [...new Set(lowered.rows.map((row) => row.turn))].sort((a, b) => a - b);
}

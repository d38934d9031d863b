/**
 * The writes of the SQLite message repository: appending messages (each indexed for search under its
 * session's token, the session's counters bumped) and replacing their tiers. Run inside the caller's
 * `run`, so each call is one statement batch of one transaction.
 */
import type Database from 'better-sqlite3';
import { messageText } from '../../core/tool-calls.js';
import type { Message, Tier } from '../../core/types.js';
import { messageValues } from '../rows.js';
import type { TierUpdate } from '../store.js';
import { sessionToken, type TenantSearchIndex } from './search-index.js';
import type { TurnJournal } from './turn-changes.js';

type IndexInsert = Database.Statement<[number | bigint, string, string, string]>;

export interface MessageWrites {
  append(sessionId: string, messages: readonly Message[], updatedAt: string): void;
  updateTiers(sessionId: string, updates: readonly TierUpdate[]): void;
  /** True when the session holds the message (raised now, or already at that tier or above). */
  raiseTier(sessionId: string, messageId: string, tier: Tier, turn: number): boolean;
  lowerTiers(sessionId: string, raisedBefore: number): number[];
}

export function createMessageWrites(db: Database.Database, tenantId: string, index: TenantSearchIndex, journal: TurnJournal): MessageWrites {
  const insert = db.prepare(`INSERT INTO messages
    (tenant_id, session_id, id, turn, position, role, speaker, content, tier1, tier2,
     tier1_tokens, tier2_tokens, tier3_tokens, required_tier, created_at, sent_at, external_id, tool_calls, tool_call_id)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const bump = db.prepare(`UPDATE sessions SET
      message_count = message_count + ?,
      token_count = token_count + ?,
      turn_count = max(turn_count, ?),
      updated_at = ?
    WHERE tenant_id = ? AND id = ?`);
  // A raised message takes the manager's tier as the one to return to, and stays raised meanwhile.
  const updateTiers = db.prepare(`UPDATE messages SET tier1 = @tier1, tier2 = @tier2, tier1_tokens = @tier1Tokens, tier2_tokens = @tier2Tokens,
      required_tier = CASE WHEN default_tier IS NULL THEN @tier ELSE max(required_tier, @tier) END,
      default_tier = CASE WHEN default_tier IS NULL THEN NULL ELSE @tier END
    WHERE tenant_id = @tenantId AND session_id = @sessionId AND id = @messageId RETURNING turn`).pluck();
  // Asked again, a raised message keeps its tier and is kept longer; below the tier, it is raised.
  const raise = db.prepare(`UPDATE messages SET
      default_tier = CASE WHEN required_tier >= @tier AND default_tier IS NULL THEN NULL ELSE coalesce(default_tier, required_tier) END,
      raised_at_turn = CASE WHEN required_tier >= @tier AND default_tier IS NULL THEN NULL ELSE @turn END,
      required_tier = max(required_tier, @tier)
    WHERE tenant_id = @tenantId AND session_id = @sessionId AND id = @messageId RETURNING turn`).pluck();
  const lower = db
    .prepare<[string, string, number], number>(
      `UPDATE messages SET required_tier = default_tier, default_tier = NULL, raised_at_turn = NULL
        WHERE tenant_id = ? AND session_id = ? AND raised_at_turn < ? RETURNING turn`,
    )
    .pluck();
  // The index table exists from the tenant's first session on; its statement is prepared once per table.
  const indexStatements = new Map<string, IndexInsert>();
  const indexInsert = (): IndexInsert => {
    const table = index.ensure();
    let statement = indexStatements.get(table);
    if (statement === undefined) {
      statement = db.prepare<[number | bigint, string, string, string]>(`INSERT INTO ${table} (rowid, speaker, content, session) VALUES (?, ?, ?, ?)`);
      indexStatements.set(table, statement);
    }
    return statement;
  };

  return {
    append: (sessionId, messages, updatedAt) => {
      let tokens = 0;
      let maxTurn = 0;
      const indexed = indexInsert();
      const token = sessionToken(sessionId);
      for (const message of messages) {
        const { lastInsertRowid } = insert.run(tenantId, sessionId, ...messageValues(message));
        // A tool call is found by its name and arguments.
        indexed.run(lastInsertRowid, message.speaker ?? '', messageText(message), token);
        tokens += message.tokens.tier3;
        maxTurn = Math.max(maxTurn, message.turn);
      }
      bump.run(messages.length, tokens, maxTurn, updatedAt, tenantId, sessionId);
    },
    updateTiers: db.transaction((sessionId: string, updates: readonly TierUpdate[]) => {
      const turns: number[] = [];
      for (const update of updates) {
        const turn = updateTiers.get({
          tier1: update.tier1,
          tier2: update.tier2,
          tier1Tokens: update.tokens.tier1,
          tier2Tokens: update.tokens.tier2,
          tier: update.requiredTier,
          tenantId,
          sessionId,
          messageId: update.messageId,
        }) as number | undefined;
        if (turn !== undefined) turns.push(turn);
      }
      journal.note(sessionId, turns);
    }),
    raiseTier: db.transaction((sessionId: string, messageId: string, tier: Tier, turn: number) => {
      const changed = raise.get({ tier, turn, tenantId, sessionId, messageId }) as number | undefined;
      if (changed !== undefined) journal.note(sessionId, [changed]);
      return changed !== undefined;
    }),
    lowerTiers: db.transaction((sessionId: string, raisedBefore: number) => {
      const turns = [...new Set(lower.all(tenantId, sessionId, raisedBefore))].sort((a, b) => a - b);
      journal.note(sessionId, turns);
      return turns;
    }),
  };
}

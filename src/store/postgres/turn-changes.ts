/**
 * The PostgreSQL side of `TurnRepository.changes`: a write of a turn's summary or of its messages' tiers
 * gives each turn it touched the tenant's next revision in the same statement (a data-modifying WITH),
 * so it costs no extra round trip; a reader asks which turns of a session have a revision above the one
 * it saw. A tenant's writes hold its lock and its counter never goes back, so a session's revisions only
 * grow, even across a session deleted and made again under its id.
 */
import type { TurnChanges } from '../store.js';
import type { Sql } from './sql.js';

/**
 * `statement` (an INSERT or UPDATE … RETURNING the turn of each row it wrote) made to journal those turns;
 * the whole returns each turn once. `tenant` and `session` are its parameters naming them (`$1` …).
 */
export function journaled(statement: string, tenant: string, session: string): string {
  return `WITH changed AS (${statement}),
      next AS (UPDATE tenants SET turn_revision = turn_revision + 1 WHERE id = ${tenant} AND EXISTS (SELECT 1 FROM changed) RETURNING turn_revision AS revision)
    INSERT INTO turn_changes (tenant_id, session_id, turn, revision)
    SELECT DISTINCT ${tenant}, ${session}, changed.turn, next.revision FROM changed, next
    ON CONFLICT (tenant_id, session_id, turn) DO UPDATE SET revision = excluded.revision
    RETURNING turn`;
}

export async function turnChanges(sql: Sql, tenantId: string, sessionId: string, after?: number): Promise<TurnChanges> {
  const { rows } = await sql.query<{ revision: number; turns: number[] }>(
    `SELECT (SELECT coalesce(max(revision), 0) FROM turn_changes WHERE tenant_id = $1 AND session_id = $2) AS revision,
       coalesce((SELECT array_agg(turn ORDER BY turn) FROM turn_changes WHERE tenant_id = $1 AND session_id = $2 AND revision > $3::bigint), '{}') AS turns`,
    [tenantId, sessionId, after ?? Number.MAX_SAFE_INTEGER],
  );
  const row = rows[0];
  return { revision: Number(row?.revision ?? 0), turns: after === undefined ? [] : (row?.turns ?? []).map(Number) };
}

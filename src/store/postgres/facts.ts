import type { Fact, FactEvent } from '../../core/types.js';
import type { FactRepository } from '../store.js';
import { FACT_COLUMNS, toEvent, toFact, type EventRow, type FactRow } from '../rows.js';
import { columnsOf, type Sql } from './sql.js';

const EVENT_COLUMNS = 'id, session_id, sequence, fact_id, op, key, kind, old_text, new_text, turn, actor, reason, source_message_ids, created_at, may_replace, undoes';

/** An event's values, in the order of the arrays its INSERT unnests. */
function eventRow(event: FactEvent): unknown[] {
  return [event.sequence, event.id, event.factId, event.op, event.key, event.kind, event.oldText, event.newText, event.turn, event.actor, event.reason,
    JSON.stringify(event.sourceMessageIds), event.createdAt, event.mayReplace ?? null, event.undoes ?? null];
}

/** A fact's values, in the order of the arrays its upsert unnests. */
function factRow(fact: Fact): unknown[] {
  return [fact.id, fact.key, fact.text, fact.kind, fact.pinned, JSON.stringify(fact.sourceMessageIds), fact.createdTurn, fact.updatedTurn, fact.createdAt, fact.updatedAt, fact.mayReplace ?? null];
}

export function createFactRepository(sql: Sql, tenantId: string): FactRepository {
  return {
    list: async ({ sessionId }) => {
      // Read as arrays, as the SQLite store reads them (a session's first package reads thousands).
      return (await sql.arrays<FactRow>(`SELECT ${FACT_COLUMNS} FROM facts WHERE tenant_id = $1 AND session_id = $2 ORDER BY created_turn, id`, [tenantId, sessionId])).map(toFact);
    },
    listEvents: async ({ sessionId, upToTurn }) =>
      (
        await sql.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM fact_events WHERE tenant_id = $1 AND session_id = $2 AND turn <= $3 ORDER BY sequence`, [
          tenantId,
          sessionId,
          Math.min(upToTurn ?? 2_147_483_647, 2_147_483_647),
        ])
      ).rows.map(toEvent),
    lastSequence: async ({ sessionId }) =>
      (await sql.query<{ sequence: number | null }>('SELECT max(sequence) AS sequence FROM fact_events WHERE tenant_id = $1 AND session_id = $2', [tenantId, sessionId])).rows[0]?.sequence ?? 0,
    apply: ({ sessionId, events, upserts: given, removedIds }) =>
      sql.write(async (write) => {
        // One statement upserts them all, and may change a row only once: a fact given twice is kept as last given.
        const upserts = [...new Map(given.map((fact) => [fact.id, fact])).values()];
        if (events.length > 0) {
          await write.query(
            `INSERT INTO fact_events (tenant_id, session_id, sequence, id, fact_id, op, key, kind, old_text, new_text, turn, actor, reason, source_message_ids, created_at, may_replace, undoes)
             SELECT $1, $2, e.sequence, e.id, e.fact_id, e.op, e.key, e.kind, e.old_text, e.new_text, e.turn, e.actor, e.reason, e.sources::jsonb, e.created_at, e.may_replace, e.undoes
               FROM unnest($3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::int[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[])
                 AS e (sequence, id, fact_id, op, key, kind, old_text, new_text, turn, actor, reason, sources, created_at, may_replace, undoes)`,
            [
              tenantId,
              sessionId,
              ...columnsOf(events.map(eventRow), 15),
            ],
          );
        }
        if (removedIds.length > 0) await write.query('DELETE FROM facts WHERE tenant_id = $1 AND session_id = $2 AND id = ANY ($3::text[])', [tenantId, sessionId, removedIds]);
        if (upserts.length > 0) {
          await write.query(
            `INSERT INTO facts (tenant_id, session_id, id, key, text, kind, pinned, source_message_ids, created_turn, updated_turn, created_at, updated_at, may_replace)
             SELECT $1, $2, f.id, f.key, f.text, f.kind, f.pinned, f.sources::jsonb, f.created_turn, f.updated_turn, f.created_at, f.updated_at, f.may_replace
               FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::boolean[], $8::text[], $9::int[], $10::int[], $11::text[], $12::text[], $13::text[])
                 AS f (id, key, text, kind, pinned, sources, created_turn, updated_turn, created_at, updated_at, may_replace)
             ON CONFLICT (tenant_id, id) DO UPDATE SET key = excluded.key, text = excluded.text, kind = excluded.kind,
               pinned = excluded.pinned, source_message_ids = excluded.source_message_ids,
               updated_turn = excluded.updated_turn, updated_at = excluded.updated_at, may_replace = excluded.may_replace
             WHERE facts.session_id = excluded.session_id`,
            [tenantId, sessionId, ...columnsOf(upserts.map(factRow), 11)],
          );
        }
      }),
  };
}

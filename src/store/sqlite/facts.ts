import type Database from 'better-sqlite3';
import type { FactRepository } from '../store.js';
import { FACT_COLUMNS, toFact, toEvent, type FactRow, type EventRow } from '../rows.js';
import type { Run } from './run.js';

export function createFactRepository(db: Database.Database, tenantId: string, run: Run): FactRepository {
  const list = db
    .prepare<[string, string], FactRow>(`SELECT ${FACT_COLUMNS} FROM facts WHERE tenant_id = ? AND session_id = ? ORDER BY created_turn, id`)
    .raw(true);
  const events = db.prepare<[string, string, number], EventRow>(
    'SELECT * FROM fact_events WHERE tenant_id = ? AND session_id = ? AND turn <= ? ORDER BY sequence',
  );
  const lastSequence = db.prepare<[string, string], { sequence: number | null }>(
    'SELECT max(sequence) AS sequence FROM fact_events WHERE tenant_id = ? AND session_id = ?',
  );
  const insertEvent = db.prepare(`INSERT INTO fact_events
    (tenant_id, session_id, sequence, id, fact_id, op, key, kind, old_text, new_text, turn, actor, reason, source_message_ids, created_at, may_replace, undoes)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const upsert = db.prepare(`INSERT INTO facts
    (tenant_id, session_id, id, key, text, kind, pinned, source_message_ids, created_turn, updated_turn, created_at, updated_at, may_replace)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (tenant_id, id) DO UPDATE SET key = excluded.key, text = excluded.text, kind = excluded.kind,
      pinned = excluded.pinned, source_message_ids = excluded.source_message_ids,
      updated_turn = excluded.updated_turn, updated_at = excluded.updated_at, may_replace = excluded.may_replace
    WHERE facts.session_id = excluded.session_id`);
  const remove = db.prepare('DELETE FROM facts WHERE tenant_id = ? AND session_id = ? AND id = ?');

  return {
    list: ({ sessionId }) => run(() => list.all(tenantId, sessionId).map(toFact)),
    listEvents: ({ sessionId, upToTurn }) =>
      run(() => events.all(tenantId, sessionId, upToTurn ?? Number.MAX_SAFE_INTEGER).map(toEvent)),
    lastSequence: ({ sessionId }) => run(() => lastSequence.get(tenantId, sessionId)?.sequence ?? 0),
    apply: ({ sessionId, events: newEvents, upserts, removedIds }) =>
      run(() => {
        for (const event of newEvents) {
          insertEvent.run(
            tenantId,
            sessionId,
            event.sequence,
            event.id,
            event.factId,
            event.op,
            event.key,
            event.kind,
            event.oldText,
            event.newText,
            event.turn,
            event.actor,
            event.reason,
            JSON.stringify(event.sourceMessageIds),
            event.createdAt,
            event.mayReplace ?? null,
            event.undoes ?? null,
          );
        }
        for (const id of removedIds) remove.run(tenantId, sessionId, id);
        for (const fact of upserts) {
          upsert.run(
            tenantId,
            sessionId,
            fact.id,
            fact.key,
            fact.text,
            fact.kind,
            fact.pinned ? 1 : 0,
            JSON.stringify(fact.sourceMessageIds),
            fact.createdTurn,
            fact.updatedTurn,
            fact.createdAt,
            fact.updatedAt,
            fact.mayReplace ?? null,
          );
        }
      }),
  };
}

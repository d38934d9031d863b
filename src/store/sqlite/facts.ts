import type Database from 'better-sqlite3';
import type { Fact, FactEvent, FactEventOp, FactKind } from '../../core/types.js';
import type { FactRepository } from '../store.js';
import { parseIdList } from './rows.js';
import type { Run } from './run.js';

interface FactRow {
  id: string;
  session_id: string;
  key: string;
  text: string;
  kind: FactKind;
  pinned: number;
  source_message_ids: string;
  created_turn: number;
  updated_turn: number;
  created_at: string;
  updated_at: string;
  may_replace: string | null;
}

interface EventRow {
  id: string;
  session_id: string;
  sequence: number;
  fact_id: string | null;
  op: FactEventOp;
  key: string;
  kind: FactKind;
  old_text: string | null;
  new_text: string | null;
  turn: number;
  actor: string;
  reason: string;
  source_message_ids: string;
  created_at: string;
  may_replace: string | null;
}

function toFact(row: FactRow): Fact {
  return {
    id: row.id,
    sessionId: row.session_id,
    key: row.key,
    text: row.text,
    kind: row.kind,
    pinned: row.pinned === 1,
    sourceMessageIds: parseIdList(row.source_message_ids, 'facts.source_message_ids'),
    createdTurn: row.created_turn,
    updatedTurn: row.updated_turn,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.may_replace === null ? {} : { mayReplace: row.may_replace }),
  };
}

function toEvent(row: EventRow): FactEvent {
  return {
    id: row.id,
    sessionId: row.session_id,
    sequence: row.sequence,
    factId: row.fact_id,
    op: row.op,
    key: row.key,
    kind: row.kind,
    oldText: row.old_text,
    newText: row.new_text,
    turn: row.turn,
    actor: row.actor,
    reason: row.reason,
    sourceMessageIds: parseIdList(row.source_message_ids, 'fact_events.source_message_ids'),
    createdAt: row.created_at,
    ...(row.may_replace === null ? {} : { mayReplace: row.may_replace }),
  };
}

export function createFactRepository(db: Database.Database, tenantId: string, run: Run): FactRepository {
  const list = db.prepare<[string, string], FactRow>(
    'SELECT * FROM facts WHERE tenant_id = ? AND session_id = ? ORDER BY created_turn, id',
  );
  const events = db.prepare<[string, string, number], EventRow>(
    'SELECT * FROM fact_events WHERE tenant_id = ? AND session_id = ? AND turn <= ? ORDER BY sequence',
  );
  const lastSequence = db.prepare<[string, string], { sequence: number | null }>(
    'SELECT max(sequence) AS sequence FROM fact_events WHERE tenant_id = ? AND session_id = ?',
  );
  const insertEvent = db.prepare(`INSERT INTO fact_events
    (tenant_id, session_id, sequence, id, fact_id, op, key, kind, old_text, new_text, turn, actor, reason, source_message_ids, created_at, may_replace)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
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

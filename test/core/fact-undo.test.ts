import { describe, expect, it } from 'vitest';
import { replayFactEvents } from '../../src/core/diff.js';
import { isStrataError } from '../../src/core/errors.js';
import { planUndo } from '../../src/core/fact-undo.js';
import type { FactEvent, FactKind } from '../../src/core/types.js';

let sequence = 0;

function event(fields: { id: string; factId: string | null; op: FactEvent['op']; key: string; turn: number; oldText?: string | null; newText?: string | null; kind?: FactKind; sources?: string[] }): FactEvent {
  sequence += 1;
  return {
    id: fields.id,
    sessionId: 's1',
    sequence,
    factId: fields.factId,
    op: fields.op,
    key: fields.key,
    kind: fields.kind ?? 'fact',
    oldText: fields.oldText ?? null,
    newText: fields.newText ?? null,
    turn: fields.turn,
    actor: 'model:test',
    reason: 'test',
    sourceMessageIds: fields.sources ?? [],
    createdAt: `2026-01-0${fields.turn}T00:00:00.000Z`,
  };
}

/** A document: a database fact merged into another by a consolidation, a pinned exception, a removed budget. */
function history(): FactEvent[] {
  sequence = 0;
  return [
    event({ id: 'e1', factId: 'f-db', op: 'add', key: 'database', turn: 1, newText: 'database: PostgreSQL 16', sources: ['m1'] }),
    event({ id: 'e2', factId: 'f-db2', op: 'add', key: 'database version', turn: 1, newText: 'database version: PostgreSQL 16 with backups', sources: ['m2'] }),
    event({ id: 'e3', factId: 'f-cards', op: 'add', key: 'card numbers', turn: 1, kind: 'exception', newText: 'card numbers: never store them', sources: ['m1'] }),
    event({ id: 'e4', factId: 'f-budget', op: 'add', key: 'budget', turn: 1, kind: 'constraint', newText: 'budget: $40,000', sources: ['m1'] }),
    event({ id: 'e5', factId: null, op: 'reject', key: 'consolidation', turn: 2, reason: 'x' } as never),
    event({ id: 'e6', factId: 'f-budget', op: 'remove', key: 'budget', turn: 2, kind: 'constraint', oldText: 'budget: $40,000', sources: ['m5'] }),
    event({ id: 'e7', factId: 'f-db', op: 'consolidate', key: 'database', turn: 3, oldText: 'database: PostgreSQL 16', newText: 'database: PostgreSQL 16 with backups', sources: ['m1', 'm2'] }),
    event({ id: 'e8', factId: 'f-db2', op: 'consolidate', key: 'database version', turn: 3, oldText: 'database version: PostgreSQL 16 with backups', newText: null, sources: ['m2'] }),
  ];
}

function undo(events: FactEvent[], eventId: string) {
  const facts = replayFactEvents(events);
  const plan = planUndo({ events, facts, eventId, turn: 5, sequence: events.length + 1, now: '2026-01-09T00:00:00.000Z', newId: () => `u-${eventId}` });
  return { plan, after: replayFactEvents([...events, plan.event]) };
}

function refusal(events: FactEvent[], eventId: string): string {
  try {
    undo(events, eventId);
  } catch (error) {
    expect(isStrataError(error) && error.code === 'INVALID_INPUT').toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('planUndo', () => {
  it('brings back a fact a consolidation merged away, with its text, sources and creation turn', () => {
    const { plan, after } = undo(history(), 'e8');
    expect(plan.event).toMatchObject({ op: 'add', factId: 'f-db2', actor: 'user', reason: 'undo of event e8', undoes: 'e8', newText: 'database version: PostgreSQL 16 with backups', sourceMessageIds: ['m2'], turn: 5, sequence: 9 });
    expect(plan.upserts).toEqual([after.find((fact) => fact.id === 'f-db2')]);
    // Back as it stood before the consolidation: established at turn 1, not at the undo's turn 5.
    expect(after.find((fact) => fact.id === 'f-db2')).toMatchObject({ createdTurn: 1, updatedTurn: 1, updatedAt: '2026-01-01T00:00:00.000Z' });
  });

  it('restores the old text of a consolidated fact', () => {
    const { plan, after } = undo(history(), 'e7');
    expect(plan.event).toMatchObject({ op: 'update', oldText: 'database: PostgreSQL 16 with backups', newText: 'database: PostgreSQL 16', sourceMessageIds: ['m1'] });
    expect(after.find((fact) => fact.id === 'f-db')).toMatchObject({ text: 'database: PostgreSQL 16', updatedTurn: 1 });
    expect(plan.upserts).toEqual([after.find((fact) => fact.id === 'f-db')]);
    expect(plan.removedIds).toEqual([]);
  });

  it('re-adds a removed fact with its original sources, and removes an added one', () => {
    const readd = undo(history(), 'e6');
    expect(readd.plan.event).toMatchObject({ op: 'add', factId: 'f-budget', kind: 'constraint', newText: 'budget: $40,000', sourceMessageIds: ['m1'] });
    const removal = undo(history(), 'e3');
    expect(removal.plan.event).toMatchObject({ op: 'remove', factId: 'f-cards', oldText: 'card numbers: never store them', newText: null });
    expect(removal.plan.removedIds).toEqual(['f-cards']);
    expect(removal.after.some((fact) => fact.id === 'f-cards')).toBe(false);
  });

  it('brings a removed fact back with the older fact it may replace, in the document and in the replay alike', () => {
    const events = history();
    events.push(event({ id: 'e9', factId: 'f-venue', op: 'add', key: 'venue', turn: 3, newText: 'venue: Leeds', sources: ['m7'] }));
    events[events.length - 1] = { ...events[events.length - 1]!, mayReplace: 'f-db' };
    events.push(event({ id: 'e10', factId: 'f-venue', op: 'remove', key: 'venue', turn: 4, oldText: 'venue: Leeds' }));
    const { plan, after } = undo(events, 'e10');
    expect(plan.upserts[0]).toMatchObject({ id: 'f-venue', mayReplace: 'f-db', updatedTurn: 3 });
    expect(plan.upserts).toEqual([after.find((fact) => fact.id === 'f-venue')]);
  });

  it('brings a removed pinned exception back pinned', () => {
    const events = history();
    events.push(event({ id: 'e9', factId: 'f-cards', op: 'remove', key: 'card numbers', turn: 3, kind: 'exception', oldText: 'card numbers: never store them' }));
    const { plan, after } = undo(events, 'e9');
    expect(plan.upserts[0]).toMatchObject({ kind: 'exception', pinned: true });
    expect(after.find((fact) => fact.id === 'f-cards')).toMatchObject({ kind: 'exception', pinned: true, createdTurn: 1 });
  });

  it('can undo an undo', () => {
    const events = history();
    const first = undo(events, 'e7').plan.event;
    const second = undo([...events, first], first.id);
    expect(second.plan.event).toMatchObject({ op: 'update', newText: 'database: PostgreSQL 16 with backups', reason: `undo of event ${first.id}` });
    // The consolidated text comes back as of the consolidation's turn.
    expect(second.plan.upserts).toEqual([second.after.find((fact) => fact.id === 'f-db')]);
    expect(second.plan.upserts[0]).toMatchObject({ updatedTurn: 3, updatedAt: '2026-01-03T00:00:00.000Z' });
  });

  it('refuses unknown events, rejections and facts changed since, saying what to do', () => {
    expect(refusal(history(), 'nope')).toMatch(/No fact event "nope".*--events --json/u);
    expect(refusal(history(), 'e5')).toMatch(/reject event: it changed no fact.*Undo an add, update, remove or consolidate event/u);
    expect(refusal(history(), 'e1')).toMatch(/changed after event "e1": event "e7" \(consolidate, turn 3\).*Undo "e7" first/u);
  });
});

describe('replayFactEvents with undo events', () => {
  it('shows the document before and after an undo by turn', () => {
    const events = history();
    const { plan } = undo(events, 'e8');
    const all = [...events, { ...plan.event, turn: 4 }];
    expect(replayFactEvents(all, { atTurn: 3 }).map((fact) => fact.id)).toEqual(['f-cards', 'f-db']);
    expect(replayFactEvents(all, { atTurn: 4 }).map((fact) => fact.id)).toEqual(['f-cards', 'f-db', 'f-db2']);
    expect(replayFactEvents(all, { atTurn: 2 }).map((fact) => fact.text)).toEqual(['card numbers: never store them', 'database: PostgreSQL 16', 'database version: PostgreSQL 16 with backups']);
  });
});

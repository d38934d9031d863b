import type { ApplyDiffOptions, ApplyDiffResult } from './fact-diff.js';
import { listWithIndex, takeIndex, type FactIndex } from './fact-index.js';
import { addedFact, revisedFact } from './fact-revision.js';
import type { Fact, FactEvent, FactKind } from './types.js';

/** What an event says; the application stamps its id, session, sequence, turn, actor and time. */
export type DiffEventFields = Omit<FactEvent, 'id' | 'sessionId' | 'sequence' | 'turn' | 'actor' | 'createdAt'>;

/**
 * One diff being applied: the facts so far and the events that made them. Every change goes through
 * here, so events are numbered in the order they happen and each fact is built from its own event.
 */
export interface DiffApplication {
  readonly options: ApplyDiffOptions;
  /** Minimum word similarity for matching a key to a fact. */
  readonly threshold: number;
  /** The facts as they stand after the changes so far, indexed (read it; change it only through this application). */
  readonly facts: Pick<FactIndex, 'withText' | 'withKey' | 'match'>;
  /** Record an event that changes no fact by itself (a rejection or a warning). */
  record(fields: DiffEventFields): FactEvent;
  /** Add a fact under a new id; `mayReplace` is an older fact it may supersede. */
  add(key: string, text: string, kind: FactKind, sources: string[], reason: string, mayReplace?: Fact): void;
  /** Change a fact's text or kind; saying the same again records nothing. */
  update(fact: Fact, text: string, kind: FactKind, sources: string[], reason: string, mayReplace?: Fact): void;
  remove(fact: Fact, reason: string, sources: string[]): void;
  result(): ApplyDiffResult;
}

export function startDiffApplication(options: ApplyDiffOptions): DiffApplication {
  // Facts are never changed in place (a change makes a new fact), so the caller's are shared, not copied;
  // their index (built once for a document) is changed here and goes with the facts the diff leaves.
  const facts = takeIndex(options.facts);
  const events: FactEvent[] = [];
  const upserted = new Map<string, Fact>();
  const removedIds: string[] = [];
  let sequence = options.firstSequence;

  const record = (fields: DiffEventFields): FactEvent => {
    const event: FactEvent = {
      id: options.newId(),
      sessionId: options.sessionId,
      sequence: sequence++,
      turn: options.turn,
      actor: options.actor,
      createdAt: options.now,
      ...fields,
    };
    events.push(event);
    return event;
  };
  const doubtOf = (mayReplace: Fact | undefined): { mayReplace?: string } => (mayReplace === undefined ? {} : { mayReplace: mayReplace.id });

  return {
    options,
    threshold: options.similarityThreshold ?? 0.6,
    facts,
    record,
    add(key, text, kind, sources, reason, mayReplace) {
      // The fact's id is drawn before its event's, so a counting `newId` numbers a fact before the event that adds it.
      const factId = options.newId();
      const event = record({ factId, op: 'add', key, kind, oldText: null, newText: text, reason, sourceMessageIds: sources, ...doubtOf(mayReplace) });
      const fact = addedFact({ ...event, factId }, text);
      facts.set(fact);
      upserted.set(fact.id, fact);
    },
    update(fact, text, kind, sources, reason, mayReplace) {
      if (fact.text === text && fact.kind === kind) return;
      const event = record({ factId: fact.id, op: 'update', key: fact.key, kind, oldText: fact.text, newText: text, reason, sourceMessageIds: sources, ...doubtOf(mayReplace) });
      const next = revisedFact(fact, event, text);
      facts.set(next);
      upserted.set(fact.id, next);
    },
    remove(fact, reason, sources) {
      facts.delete(fact.id);
      upserted.delete(fact.id);
      removedIds.push(fact.id);
      record({ factId: fact.id, op: 'remove', key: fact.key, kind: fact.kind, oldText: fact.text, newText: null, reason, sourceMessageIds: sources });
    },
    result: () => ({ facts: listWithIndex(facts), events, upserted: [...upserted.values()], removedIds }),
  };
}

import { boundedMemo } from './bounded-memo.js';
import { StrataError } from './errors.js';
import { checkGrounding, numbersIn } from './grounding.js';
import { STOPWORDS } from './query-terms.js';
import { compareText, factKey, normalizeText, quoted, wordSimilarity, words } from './text.js';
import type { Fact, FactEvent, FactKind } from './types.js';

/** A fact line proposed by a memory manager. */
export interface DiffEntry {
  /** The fact line, `key: value` preferred. */
  text: string;
  kind: FactKind;
  /** The key to match on; derived from the text before the first `:` when absent. */
  key?: string;
  sourceMessageIds: string[];
  /**
   * For an update: why the fact changes, in words a person can read (the words of the message that
   * changed it). The event reads `turn N: <reason>`; without one, it quotes the new line.
   */
  reason?: string;
  /**
   * The key (or words) of another, older fact this line may replace, when the manager cannot tell whether
   * the two are about the same subject. Both facts are kept and the package shows the older one as
   * possibly superseded (see `Fact.mayReplace`); a key matching no fact marks nothing.
   */
  mayReplace?: string;
}

export interface RemoveEntry {
  /** Key (or words of the fact) to remove. */
  key: string;
  reason: string;
  sourceMessageIds: string[];
}

/** A base-truth diff for one turn, applied in the order remove → update → add. */
export interface FactDiff {
  add: DiffEntry[];
  update: DiffEntry[];
  remove: RemoveEntry[];
}

export const EMPTY_DIFF: FactDiff = { add: [], update: [], remove: [] };

/** How binding each kind is; restating a fact can only make it more binding. */
export const KIND_STRENGTH: Readonly<Record<FactKind, number>> = { fact: 0, preference: 1, goal: 2, constraint: 3, exception: 4 };

export interface ApplyDiffOptions {
  sessionId: string;
  /** The current facts of the session. */
  facts: readonly Fact[];
  diff: FactDiff;
  /** The text of the exchange the diff came from: every entry must be grounded in it. */
  exchange: string;
  /** Ids of the messages of the exchange; entries may only cite these. */
  exchangeMessageIds: readonly string[];
  /** When the exchange's messages were sent (those with a known time): relative dates resolved against them are grounded. */
  exchangeTimes?: readonly string[];
  turn: number;
  actor: string;
  now: string;
  newId: () => string;
  /** Sequence number of the first event produced. */
  firstSequence: number;
  /** Minimum word similarity for the key fallback match (default 0.6). */
  similarityThreshold?: number;
  /** Longest accepted fact line in characters (default 500). */
  maxTextLength?: number;
}

export interface ApplyDiffResult {
  /** The facts after the diff. */
  facts: Fact[];
  /** Every change, rejection and warning, in order. */
  events: FactEvent[];
  /** Facts added or updated by the diff. */
  upserted: Fact[];
  /** Ids of facts removed by the diff. */
  removedIds: string[];
}

/** `turn 14: "the budget got cut to 82k"`: why a fact changed, with the turn that changed it. */
export function turnReason(turn: number, reason: string | undefined, line: string): string {
  const given = reason?.trim() ?? '';
  const text = given !== '' ? given : quoted(line, 160);
  return /^turn \d+:/u.test(text) ? text : `turn ${turn}: ${text}`;
}

/** Find the fact a key refers to: exact normalised key first, then the most similar key. */
export function matchFact(facts: readonly Fact[], key: string, threshold = 0.6): Fact | undefined {
  const normalized = normalizeText(key);
  if (normalized === '') return undefined;
  const exact = facts.filter((fact) => fact.key === normalized);
  if (exact.length > 0) return newest(exact);
  let best: Fact | undefined;
  let bestScore = threshold;
  for (const fact of facts) {
    const score = Math.max(wordSimilarity(normalized, fact.key), wordSimilarity(normalized, fact.text));
    if (score > bestScore || (score === bestScore && best === undefined)) {
      best = fact;
      bestScore = score;
    }
  }
  return best;
}

/** Normalised fact texts, remembered: every add compares itself with the whole document. */
const normalizedFactText = boundedMemo(normalizeText, 20_000);

function newest(facts: readonly Fact[]): Fact | undefined {
  return [...facts].sort((a, b) => b.updatedTurn - a.updatedTurn || compareText(a.id, b.id))[0];
}

/**
 * Validate a diff against its exchange and apply it to the facts.
 * Pure: returns the new facts and the events; the caller persists them in one transaction.
 */
export function applyDiff(options: ApplyDiffOptions): ApplyDiffResult {
  const threshold = options.similarityThreshold ?? 0.6;
  const maxLength = options.maxTextLength ?? 500;
  const facts = new Map(options.facts.map((fact) => [fact.id, { ...fact }]));
  const events: FactEvent[] = [];
  const upserted = new Map<string, Fact>();
  const removedIds: string[] = [];
  const allowedSources = new Set(options.exchangeMessageIds);
  let sequence = options.firstSequence;

  const event = (fields: Omit<FactEvent, 'id' | 'sessionId' | 'sequence' | 'turn' | 'actor' | 'createdAt'>): void => {
    events.push({
      id: options.newId(),
      sessionId: options.sessionId,
      sequence: sequence++,
      turn: options.turn,
      actor: options.actor,
      createdAt: options.now,
      ...fields,
    });
  };

  const sourcesOf = (ids: readonly string[]): string[] | string => {
    const unknown = ids.filter((id) => !allowedSources.has(id));
    if (unknown.length > 0) return `cites messages outside this exchange: ${unknown.join(', ')}`;
    return ids.length > 0 ? [...new Set(ids)] : [...options.exchangeMessageIds];
  };

  /** Reject an entry that is empty, too long, cites foreign messages or is not grounded. */
  const validate = (entry: DiffEntry, context: string): { text: string; key: string; sources: string[] } | null => {
    const text = entry.text.trim().replace(/\s+/gu, ' ');
    const key = normalizeText(entry.key ?? factKey(text));
    const reject = (reason: string): null => {
      event({ factId: null, op: 'reject', key, kind: entry.kind, oldText: null, newText: text, reason, sourceMessageIds: [] });
      return null;
    };
    if (text === '' || key === '') return reject('empty fact text');
    if (text.length > maxLength) return reject(`fact text is ${text.length} characters; the limit is ${maxLength}`);
    const sources = sourcesOf(entry.sourceMessageIds);
    if (typeof sources === 'string') return reject(sources);
    const grounding = checkGrounding(text, `${options.exchange}\n${context}`, options.exchangeTimes);
    if (!grounding.grounded) {
      return reject(`not grounded in the exchange: ${grounding.missing.join(', ')} not found there`);
    }
    return { text, key, sources };
  };

  const update = (fact: Fact, text: string, kind: FactKind, sources: string[], reason: string, mayReplace?: Fact): void => {
    if (fact.text === text && fact.kind === kind) return;
    const doubt = mayReplace === undefined ? {} : { mayReplace: mayReplace.id };
    event({ factId: fact.id, op: 'update', key: fact.key, kind, oldText: fact.text, newText: text, reason, sourceMessageIds: sources, ...doubt });
    const next = revisedFact(fact, events[events.length - 1] as FactEvent, text);
    facts.set(fact.id, next);
    upserted.set(fact.id, next);
  };

  const add = (key: string, text: string, kind: FactKind, sources: string[], reason: string, mayReplace?: Fact): void => {
    const doubt = mayReplace === undefined ? {} : { mayReplace: mayReplace.id };
    event({ factId: options.newId(), op: 'add', key, kind, oldText: null, newText: text, reason, sourceMessageIds: sources, ...doubt });
    const fact = addedFact(events[events.length - 1] as FactEvent & { factId: string }, text);
    facts.set(fact.id, fact);
    upserted.set(fact.id, fact);
  };

  let exchangeWords: ReadonlySet<string> | undefined;
  /** A removal is supported when the exchange names what it removes: a content word of the fact's key. */
  const mentioned = (fact: Fact): boolean => {
    exchangeWords ??= new Set(words(options.exchange));
    const named = exchangeWords;
    return words(`${fact.key} ${fact.text}`).some((word) => !STOPWORDS.has(word) && named.has(word));
  };

  for (const entry of options.diff.remove) {
    const key = normalizeText(entry.key);
    const fact = matchFact([...facts.values()], entry.key, threshold);
    const sources = sourcesOf(entry.sourceMessageIds);
    if (typeof sources === 'string' || fact === undefined || entry.reason.trim() === '' || !mentioned(fact)) {
      const reason =
        typeof sources === 'string'
          ? sources
          : fact === undefined
            ? 'remove matched no fact'
            : entry.reason.trim() === ''
              ? 'a removal needs a reason'
              : `not grounded in the exchange: it never mentions "${fact.key}"`;
      event({ factId: null, op: 'reject', key, kind: fact?.kind ?? 'fact', oldText: null, newText: null, reason, sourceMessageIds: [] });
      continue;
    }
    facts.delete(fact.id);
    upserted.delete(fact.id);
    removedIds.push(fact.id);
    event({ factId: fact.id, op: 'remove', key: fact.key, kind: fact.kind, oldText: fact.text, newText: null, reason: turnReason(options.turn, entry.reason, ''), sourceMessageIds: sources });
  }

  for (const entry of options.diff.update) {
    const target = matchFact([...facts.values()], entry.key ?? factKey(entry.text), threshold);
    const valid = validate(entry, target?.text ?? '');
    if (valid === null) continue;
    // An update must be about the fact's subject: a line keyed otherwise that shares only a word or a number
    // with it ("headcount: back to 12" sent as an update of "payday: the 12th") is rejected.
    const lineKey = factKey(valid.text);
    const only = target === undefined || target.key === lineKey ? null : onlySharedTerm({ key: lineKey, text: valid.text }, target);
    if (target !== undefined && only !== null) {
      event({
        factId: null,
        op: 'reject',
        key: valid.key,
        kind: entry.kind,
        oldText: null,
        newText: valid.text,
        reason: `update shares only "${only}" with the fact "${target.key}"; an update must be about the same subject and attribute: use that fact's key, or add a new fact`,
        sourceMessageIds: [],
      });
      continue;
    }
    if (target === undefined) {
      event({
        factId: null,
        op: 'warning',
        key: valid.key,
        kind: entry.kind,
        oldText: null,
        newText: valid.text,
        reason: 'update matched no existing fact; applied as an add',
        sourceMessageIds: valid.sources,
      });
      add(valid.key, valid.text, entry.kind, valid.sources, 'update with no matching fact');
      continue;
    }
    const doubted = entry.mayReplace === undefined ? undefined : matchFact([...facts.values()].filter((fact) => fact.id !== target.id), entry.mayReplace, threshold);
    update(target, valid.text, entry.kind, valid.sources, `${turnReason(options.turn, entry.reason, valid.text)}${doubted === undefined ? '' : mayReplaceNote(doubted)}`, doubted);
  }

  for (const entry of options.diff.add) {
    const valid = validate(entry, '');
    if (valid === null) continue;
    const current = [...facts.values()];
    const normalized = normalizeText(valid.text);
    const same = current.find((fact) => normalizedFactText(fact.text) === normalized);
    if (same !== undefined) {
      // Said again: nothing to add, but a stronger kind (an exception gets pinned) is taken.
      if (KIND_STRENGTH[entry.kind] > KIND_STRENGTH[same.kind]) update(same, same.text, entry.kind, valid.sources, `restated as ${entry.kind}`);
      continue;
    }
    const sameKey = newest(current.filter((fact) => fact.key === valid.key));
    if (sameKey !== undefined) {
      event({
        factId: sameKey.id,
        op: 'warning',
        key: valid.key,
        kind: entry.kind,
        oldText: sameKey.text,
        newText: valid.text,
        reason: 'add matched an existing key; applied as an update so the document never holds two values for one key',
        sourceMessageIds: valid.sources,
      });
      update(sameKey, valid.text, entry.kind, valid.sources, 'add with an existing key');
      continue;
    }
    const doubted = entry.mayReplace === undefined ? undefined : matchFact(current, entry.mayReplace, threshold);
    const reason = doubted === undefined ? 'added' : `added${mayReplaceNote(doubted)}`;
    add(valid.key, valid.text, entry.kind, valid.sources, reason, doubted);
  }

  return { facts: [...facts.values()], events, upserted: [...upserted.values()], removedIds };
}

/** Subject words of a line: its key and text without stop words, one-letter words and numbers. */
function subjectTerms(key: string, text: string): Set<string> {
  return new Set(words(`${key} ${text}`).filter((word) => word.length > 1 && !STOPWORDS.has(word) && !/\d/u.test(word)));
}

/**
 * When an update and the fact it would change share no more than one word or number (their keys share
 * no word), that word or number; null when they are about the same subject.
 */
function onlySharedTerm(entry: { key: string; text: string }, target: Fact): string | null {
  const entryKey = new Set(words(entry.key).filter((word) => !STOPWORDS.has(word) && !/\d/u.test(word)));
  if (words(target.key).some((word) => entryKey.has(word))) return null;
  const mine = subjectTerms(entry.key, entry.text);
  const shared = [...subjectTerms(target.key, target.text)].filter((word) => mine.has(word));
  if (shared.length >= 2) return null;
  const held = new Set(numbersIn(target.text));
  const numbers = numbersIn(entry.text).filter((number) => held.has(number));
  return shared[0] ?? numbers[0] ?? 'nothing';
}

/** `; it may replace "kickoff" (turn 3), which is kept`: what an event's reason adds for a doubted fact. */
function mayReplaceNote(doubted: Fact): string {
  return `; it may replace "${doubted.key}" (turn ${doubted.updatedTurn}), which is kept`;
}

/** A fact as an `add` event creates it (with `earlier`'s creation turn and time when it comes back after a removal). */
export function addedFact(event: FactEvent & { factId: string }, text: string, earlier?: Fact): Fact {
  return {
    id: event.factId,
    sessionId: event.sessionId,
    key: event.key,
    text,
    kind: event.kind,
    pinned: event.kind === 'exception',
    sourceMessageIds: event.sourceMessageIds,
    createdTurn: earlier?.createdTurn ?? event.turn,
    updatedTurn: event.turn,
    createdAt: earlier?.createdAt ?? event.createdAt,
    updatedAt: event.createdAt,
    ...(event.mayReplace === undefined ? {} : { mayReplace: event.mayReplace }),
  };
}

/**
 * A fact as an `update` or `consolidate` event leaves it: the event's text, kind and sources, pinned when
 * an exception, and the fact it may replace when the event names one.
 */
export function revisedFact(fact: Fact, event: FactEvent, text: string): Fact {
  return {
    ...fact,
    text,
    kind: event.kind,
    pinned: event.kind === 'exception',
    sourceMessageIds: event.sourceMessageIds,
    updatedTurn: event.turn,
    updatedAt: event.createdAt,
    ...(event.mayReplace === undefined ? {} : { mayReplace: event.mayReplace }),
  };
}

/** Facts in the order a store lists them: by the turn they were created in, then by id. */
export function inStoreOrder(facts: readonly Fact[]): Fact[] {
  return [...facts].sort((a, b) => a.createdTurn - b.createdTurn || compareText(a.id, b.id));
}

/**
 * Rebuild the base-truth document from its events, optionally as it stood at the end of a turn.
 * An `add` of a fact id that an earlier event removed (an undo) brings the fact back with its first
 * creation turn and time; an `update` or `consolidate` with no new text removes the fact.
 */
export function replayFactEvents(events: readonly FactEvent[], options: { atTurn?: number } = {}): Fact[] {
  const facts = new Map<string, Fact>();
  /** Facts removed so far, so one added back keeps its creation turn. */
  const gone = new Map<string, Fact>();
  const drop = (id: string): void => {
    const fact = facts.get(id);
    if (fact !== undefined) gone.set(id, fact);
    facts.delete(id);
  };
  const ordered = [...events].sort((a, b) => a.sequence - b.sequence);
  for (const event of ordered) {
    if (options.atTurn !== undefined && event.turn > options.atTurn) continue;
    if (event.factId === null) continue;
    switch (event.op) {
      case 'add': {
        if (event.newText === null) throw new StrataError('INVALID_INPUT', `fact event ${event.id} adds no text`);
        const earlier = gone.get(event.factId);
        gone.delete(event.factId);
        facts.set(event.factId, addedFact({ ...event, factId: event.factId }, event.newText, earlier));
        break;
      }
      case 'update':
      case 'consolidate': {
        const fact = facts.get(event.factId);
        if (fact === undefined) break;
        if (event.newText === null) {
          drop(event.factId);
          break;
        }
        facts.set(event.factId, revisedFact(fact, event, event.newText));
        break;
      }
      case 'remove':
        drop(event.factId);
        break;
      case 'reject':
      case 'warning':
        break;
    }
  }
  return inStoreOrder([...facts.values()]);
}

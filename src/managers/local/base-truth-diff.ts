/**
 * The base-truth diff of a turn: statements become adds, updates of facts with the same key,
 * corrections (updates) and removals. Every line is checked against the exchange with the
 * engine's grounding rules before it is proposed.
 *
 * A correction that names what changed but not the new value ("The deadline moved too. … The cutover
 * is now Saturday, April 12") stays open until a later statement of the same message gives the value;
 * one that never gets a value changes nothing. Plain facts of a task conversation must be about the
 * task: chit-chat ("our espresso machine broke this morning") is left out.
 */
import { boundedMemo } from '../../core/bounded-memo.js';
import type { DiffEntry, FactDiff, RemoveEntry } from '../../core/diff.js';
import { numbersIn, properNamesIn } from '../../core/grounding.js';
import { mapPacked } from '../../core/packed-map.js';
import { normalizeText, words } from '../../core/text.js';
import type { Fact, FactKind } from '../../core/types.js';
import type { AnalysedMessage } from './analysis.js';
import { categoryOf } from './categories.js';
import {
  SURE_TARGET,
  bringsNews,
  contentWordsOf,
  correctionAction,
  correctionValue,
  displayKey,
  findScoredTarget,
  findTarget,
  holderOf,
  mentionedTarget,
  newSpecifics,
  replacesOldValues,
  substituted,
  withoutChangeWords,
} from './corrections.js';
import type { CorrectionAction, KnownFact } from './corrections.js';
import { oldValuesIn, statementText } from './fact-extraction.js';
import type { Statement } from './fact-extraction.js';
import type { Specific } from './entities.js';
import { META_NOUNS, STOP_WORDS } from './function-words.js';
import type { ResolvedSettings } from './settings.js';
import type { TaggedToken } from './tagging.js';

export interface DiffInput {
  messages: readonly AnalysedMessage[];
  /** The statements of each message (same order as `messages`). */
  statements: readonly (readonly Statement[])[];
  facts: readonly Fact[];
  /** The size routing asked for a diff: every informative statement counts, not only strong cues. */
  full: boolean;
  settings: ResolvedSettings;
}

/** Longest fact line proposed (the engine rejects lines over 500 characters by default). */
const MAX_LINE_CHARACTERS = 400;

/** How binding each kind is (as the engine ranks them). */
const KIND_STRENGTH: Readonly<Record<FactKind, number>> = { fact: 0, preference: 1, goal: 2, constraint: 3, exception: 4 };

interface PendingLine {
  /** Normalised key. */
  key: string;
  keyText: string;
  text: string;
  kind: FactKind;
  sources: string[];
  weight: number;
  /** The document fact this line updates; null for an add. */
  targetId: string | null;
  /** The old line of the updated fact (grounding may use it, as the engine does). */
  targetText: string;
  order: number;
}

/** A correction or removal still waiting, within its message, for the statement that gives the new value. */
interface OpenCorrection {
  type: 'correct' | 'remove';
  statement: Statement;
  target: KnownFact | null;
  /** Values set aside so far ("1 March was unrealistic"): the new value must be of their kind. */
  old: Specific[];
}

/** Grounding with the engine's rules, against a source whose numbers and words are computed once. */
class GroundingCheck {
  private readonly numbers: ReadonlySet<string>;
  private readonly text: string;

  constructor(source: string) {
    this.numbers = new Set(numbersIn(source));
    this.text = ` ${normalizeText(source)} `;
  }

  grounded(line: string, extra: string): boolean {
    const extraNumbers = extra === '' ? null : new Set(numbersIn(extra));
    const extraText = extra === '' ? '' : ` ${normalizeText(extra)} `;
    for (const number of numbersIn(line)) {
      if (!this.numbers.has(number) && extraNumbers?.has(number) !== true) return false;
    }
    for (const name of properNamesIn(line)) {
      const normalized = normalizeText(name);
      if (normalized === '') continue;
      if (!this.text.includes(` ${normalized} `) && !extraText.includes(` ${normalized} `)) return false;
    }
    return true;
  }
}

/** Whether a message may add facts: a user message always, an assistant one as `assistantFacts` says. */
export function allowsFacts(message: AnalysedMessage, policy: ResolvedSettings['assistantFacts']): boolean {
  if (message.message.role === 'user') return true;
  if (policy === 'always') return true;
  if (policy === 'never') return false;
  return message.message.speaker !== null;
}

function isCorrective(statement: Statement): boolean {
  return statement.correction !== null || statement.removal !== null || statement.oldValues.length > 0;
}

/** A statement strong enough for a turn that gets no full diff: a cue, a correction, or a personal fact with a specific. */
function isStrong(statement: Statement): boolean {
  if (statement.kind !== 'fact' || statement.agreed) return true;
  if (isCorrective(statement)) return true;
  return statement.personal && statement.specifics.length > 0;
}

/** The statements of the turn, by message, in order, that may change the document. */
function turnStatements(input: DiffInput): { message: AnalysedMessage; statements: Statement[] }[] {
  const groups: { message: AnalysedMessage; statements: Statement[] }[] = [];
  let total = 0;
  input.messages.forEach((message, index) => {
    if (message.smallTalk || !allowsFacts(message, input.settings.assistantFacts)) return;
    const statements = (input.statements[index] ?? []).filter((statement) => input.full || isStrong(statement));
    total += statements.length;
    if (statements.length > 0) groups.push({ message, statements });
  });
  // A huge turn keeps its strongest statements (in their order), so the diff work stays bounded.
  const limit = Math.max(input.settings.maxFactsPerTurn * 10, 50);
  if (total <= limit) return groups;
  const kept = new Set(groups.flatMap((group) => group.statements).sort((a, b) => b.weight - a.weight).slice(0, limit));
  return mapPacked(groups, (group) => ({ message: group.message, statements: group.statements.filter((statement) => kept.has(statement)) }));
}

/** Greetings in emoji, "off topic", "lol": a message that says it is chit-chat. */
const CHIT_CHAT_MARKERS = /\b(?:off[- ]topic|unrelated|kidding|lol|haha+|random question|fun fact)\b|(?:^|\s)[:;]-?[)(DPp](?=\s|$)|\p{Extended_Pictographic}/iu;

/** Nouns of a role ("our CTO", "my editor"): who does what is part of the task. */
const ROLE_NOUNS = new Set([
  'manager', 'boss', 'lead', 'head', 'director', 'editor', 'supervisor', 'advisor', 'adviser', 'cto', 'ceo', 'cfo', 'coo', 'cio', 'vp',
  'owner', 'colleague', 'coworker', 'co-author', 'coauthor', 'teammate', 'engineer', 'developer', 'dev', 'designer', 'analyst', 'lawyer',
  'counsel', 'accountant', 'contact', 'client', 'customer', 'vendor', 'rep', 'representative', 'reviewer', 'approver', 'sponsor',
  'stakeholder', 'admin', 'administrator', 'officer', 'assistant', 'founder', 'partner', 'consultant', 'contractor', 'doctor', 'gp',
  'physio', 'physiotherapist', 'therapist', 'coach', 'trainer', 'dentist', 'agent', 'landlord', 'tutor', 'teacher', 'professor',
]);

function hasRoleNoun(tokens: readonly TaggedToken[], from: number, to: number): boolean {
  for (let index = from; index < to; index += 1) if (ROLE_NOUNS.has(tokens[index]?.lower.replace(/[’']s$/u, '') ?? '')) return true;
  return false;
}

/** Time words of the moment of speaking: an event then is news of the day, not a lasting fact. */
const NOW_WORDS = new Set(['today', 'tonight', 'yesterday']);
const NOW_PARTS = new Set(['morning', 'afternoon', 'evening', 'night', 'weekend']);

/** Verbs of a decision or an approval: an event worth keeping even when it is news of the day. */
const DECISION_VERBS = new Set([
  'approved', 'agreed', 'decided', 'confirmed', 'accepted', 'rejected', 'granted', 'chose', 'picked', 'booked', 'ordered', 'signed',
  'hired', 'committed', 'scheduled', 'selected', 'settled', 'finalised', 'finalized', 'renewed', 'cancelled', 'canceled',
]);

function stem(word: string): string {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

/** Whether the clause tells an event of the moment ("broke this morning", "died mid-run yesterday") that decides nothing. */
function isNewsOfTheDay(tokens: readonly TaggedToken[], from: number, to: number): boolean {
  let now = false;
  let past = false;
  for (let index = from; index < to; index += 1) {
    const token = tokens[index];
    if (token === undefined) continue;
    if (NOW_WORDS.has(token.lower)) now = true;
    const previous = tokens[index - 1]?.lower ?? '';
    if (NOW_PARTS.has(token.lower) && (previous === 'this' || previous === 'last')) now = true;
    if (token.pos === 'verb' && token.past) {
      if (DECISION_VERBS.has(token.lower)) return false;
      past = true;
    }
  }
  return now && past;
}

/** Build the diff of a turn from its analysed messages and the document before the turn. */
export function buildDiff(input: DiffInput): FactDiff {
  const groups = turnStatements(input);
  if (groups.length === 0) return { add: [], update: [], remove: [] };
  const exchange = mapPacked(input.messages, (message) => message.message.content).join('\n');
  // A line grounded in the messages it cites is grounded in the exchange (which holds them); only a line that
  // is not needs the whole exchange. (A message ending in a digit could join with the next one's "k": then
  // only the whole exchange is checked.)
  const checks = new Map<string, GroundingCheck>();
  const checkOf = (text: string): GroundingCheck => {
    let check = checks.get(text);
    if (check === undefined) {
      check = new GroundingCheck(text);
      checks.set(text, check);
    }
    return check;
  };
  const contents = new Map(input.messages.map((message) => [message.message.id, message.message.content]));
  const separable = input.messages.every((message, index) => index === input.messages.length - 1 || !/\d\s*$/u.test(message.message.content));
  const grounded = (line: PendingLine): boolean => {
    if (separable) {
      for (const source of line.sources) {
        const content = contents.get(source);
        if (content !== undefined && checkOf(content).grounded(line.text, line.targetText)) return true;
      }
    }
    return checkOf(exchange).grounded(line.text, line.targetText);
  };

  const document = new Map<string, KnownFact>();
  for (const fact of input.facts) {
    document.set(fact.id, {
      id: fact.id,
      key: fact.key,
      keyText: displayKey(fact.key, fact.text),
      text: fact.text,
      kind: fact.kind,
      order: fact.updatedTurn,
      pending: false,
    });
  }
  const pending = new Map<string, PendingLine>();
  const removals: RemoveEntry[] = [];
  let order = 0;

  // The facts known now (the document and this turn's lines), rebuilt only after a change.
  let knownFacts: KnownFact[] | null = null;
  const known = (): KnownFact[] => {
    knownFacts ??= [
      ...document.values(),
      ...mapPacked([...pending.values()], (line) => ({
        id: `pending:${line.key}`,
        key: line.key,
        keyText: line.keyText,
        text: line.text,
        kind: line.kind,
        order: Number.MAX_SAFE_INTEGER - 1_000_000 + line.order,
        pending: true,
      })),
    ];
    return knownFacts;
  };

  /** The newest fact (of the document or of this turn) with this normalised key. */
  const withKey = (key: string): KnownFact | undefined => {
    let found: KnownFact | undefined;
    for (const fact of known()) if (fact.key === key && (found === undefined || fact.order > found.order)) found = fact;
    return found;
  };

  // Content words of the document: a plain fact of a task conversation should touch one of them.
  let vocabulary: Set<string> | null = null;
  const topical = (statement: Statement): boolean => {
    if (vocabulary === null) {
      vocabulary = new Set();
      for (const fact of known()) for (const word of contentWordsOf(fact.text)) vocabulary.add(word);
    }
    const tokens = statement.sentence.tokens;
    for (let index = statement.range[0]; index < statement.range[1]; index += 1) {
      const token = tokens[index];
      if (token === undefined || token.entity === 'person' || STOP_WORDS.has(token.lower) || META_NOUNS.has(token.lower)) continue;
      if (token.pos !== 'noun' && token.pos !== 'verb' && token.pos !== 'adjective' && !(token.pos === 'proper' && categoryOf(token.text) !== null)) continue;
      for (const word of words(token.text)) if (vocabulary.has(stem(word))) return true;
    }
    return false;
  };

  /**
   * Whether a plain fact belongs in the document of a task conversation (a conversation between people
   * keeps them all): not chit-chat, not news of the day, and — when it names nobody but people — about
   * someone's role or about something the document already speaks of ("Lena had two slices" is not).
   */
  const aboutTheTask = (statement: Statement, message: AnalysedMessage, chitChat: boolean): boolean => {
    if (statement.kind !== 'fact' || isCorrective(statement) || message.message.speaker !== null) return true;
    if (chitChat || isNewsOfTheDay(statement.sentence.tokens, statement.range[0], statement.range[1])) return false;
    if (statement.specifics.some((item) => item.type !== 'name' || item.entity !== 'person')) return true;
    if (hasRoleNoun(statement.sentence.tokens, statement.range[0], statement.range[1])) return true;
    return document.size + pending.size < 3 || topical(statement);
  };

  const propose = (line: Omit<PendingLine, 'order'>): void => {
    const previous = pending.get(line.key);
    // Within one turn the later line wins, but a pinned exception is never replaced by a weaker line.
    if (previous !== undefined && previous.kind === 'exception' && line.kind !== 'exception') return;
    order += 1;
    const sources = previous === undefined ? line.sources : [...new Set([...previous.sources, ...line.sources])];
    pending.set(line.key, { ...line, order, sources });
    knownFacts = null;
    vocabulary = null;
  };

  const remove = (target: KnownFact, reason: string, sources: string[]): void => {
    knownFacts = null;
    if (target.pending) {
      pending.delete(target.key);
      return;
    }
    if (!removals.some((entry) => entry.key === target.key)) removals.push({ key: target.key, reason, sourceMessageIds: sources });
    document.delete(target.id);
    pending.delete(target.key);
  };

  /** Replace the line of a known fact (of the document, or proposed earlier in this turn). */
  const replace = (target: KnownFact, text: string, kind: FactKind, sources: string[], weight: number): void => {
    const line = target.pending ? pending.get(target.key) : undefined;
    if (line !== undefined) {
      propose({ ...line, text, kind, sources, weight });
      return;
    }
    propose({ key: target.key, keyText: target.keyText, text, kind, sources, weight, targetId: target.id, targetText: target.text });
  };

  const apply = (action: CorrectionAction, statement: Statement, sources: string[]): void => {
    if (action.type === 'remove') remove(action.target, action.reason, sources);
    else replace(action.target, action.text, action.kind, sources, statement.weight + 1);
  };

  /** A new line for a statement, under its own key unless that key already holds something else. */
  const add = (statement: Statement, keyText: string, text: (keyText: string) => string, kind: FactKind, sources: string[], weight: number): void => {
    let key = normalizeText(keyText);
    let shownKey = keyText;
    const existing = withKey(key);
    if (existing !== undefined && !sameSubject(existing, statement, kind)) {
      // Two different things under one key would overwrite each other: the new one gets a key of its own.
      shownKey = refinedKey(keyText, statement, kind);
      key = normalizeText(shownKey);
    }
    const target = withKey(key);
    if (target?.pending === true) {
      const line = pending.get(target.key);
      if (line !== undefined) {
        propose({ ...line, keyText: line.keyText, text: text(line.keyText), kind, sources, weight });
        return;
      }
    }
    propose({
      key,
      keyText: target?.keyText ?? shownKey,
      text: text(target?.keyText ?? shownKey),
      kind,
      sources,
      weight,
      targetId: target === undefined || target.pending ? null : target.id,
      targetText: target?.text ?? '',
    });
  };

  /** What a statement says as the value of an open correction (its clause when its own key names something else). */
  const valueFor = (statement: Statement, open: OpenCorrection): string => {
    const ownKey = normalizeText(statement.key);
    const sameKey = ownKey === normalizeText(open.statement.key) || (open.target !== null && ownKey === open.target.key);
    const base = sameKey || statement.pronounSubject ? statement.value : statement.clauseText;
    return correctionValue(base, statement, open.target);
  };

  const continues = (open: OpenCorrection, statement: Statement): boolean => {
    // A rule of its own ("We must never deploy on Fridays") is never the value of an earlier correction.
    if (statement.kind === 'exception') return false;
    if (!statement.informative || newSpecifics(statement, open.target).length === 0) return false;
    if (!replacesOldValues({ ...statement, oldValues: [...open.old, ...statement.oldValues] }, open.target)) return false;
    const ownKey = normalizeText(statement.key);
    const linked =
      statement.correction !== null ||
      statement.pronounSubject ||
      statement.oldValues.length > 0 ||
      ownKey === normalizeText(open.statement.key) ||
      (open.target !== null && ownKey === open.target.key);
    if (!linked) return false;
    if (!isCorrective(statement)) return true;
    // "… skip Porto. I'll fly home from Lisbon instead.": "instead" replaces what was just dropped.
    if (open.type === 'remove' && statement.correction?.phrase.startsWith('instead') === true) return true;
    const own = findTarget(statement, known());
    return own === null || open.target === null || own.id === open.target.id;
  };

  const resolve = (open: OpenCorrection, statement: Statement): void => {
    const sources = [...new Set([open.statement.messageId, statement.messageId])];
    const weight = Math.max(open.statement.weight, statement.weight) + 1;
    const target = open.target ?? (statement.oldValues.length > 0 ? holderOf(statement.oldValues, known()) : null);
    const kind = statement.cue !== null ? statement.kind : open.statement.cue !== null ? open.statement.kind : (target?.kind ?? statement.kind);
    if (target !== null) {
      const swapped = normalizeText(statement.key) === target.key ? null : substituted(statement, target);
      const value = valueFor(statement, { ...open, target });
      replace(target, swapped ?? `${target.keyText}: ${value}`, KIND_STRENGTH[target.kind] > KIND_STRENGTH[kind] ? target.kind : kind, sources, weight);
      return;
    }
    const value = valueFor(statement, open);
    add(statement, open.statement.key, (keyText) => statementText(keyText, value), kind, sources, weight);
  };

  const finish = (open: OpenCorrection): void => {
    if (open.type === 'remove' && open.target !== null && open.statement.removal !== null) {
      remove(open.target, `${open.statement.removal.phrase}: "${quote(open.statement.sentence.text, 24)}"`, [open.statement.messageId]);
    }
  };

  /** Apply a statement; returns an open correction when it changes a fact without giving the new value. */
  const handle = (statement: Statement, message: AnalysedMessage, chitChat: boolean, mentioned: readonly Specific[]): OpenCorrection | null => {
    const sources = [statement.messageId];
    // Only a correction that names what it changes ("The deadline moved", not "No, that doesn't work") waits for its value.
    const namesIt = !statement.keyless && statement.keySource !== 'content' && !statement.pronounSubject;
    if (isCorrective(statement)) {
      const scored = findScoredTarget(statement, known());
      let target = scored?.fact ?? null;
      let score = scored?.score ?? 0;
      // "1:55 feels ambitious … Let's aim for 2:00 instead": a value said earlier in the message names the fact.
      if (score < SURE_TARGET && statement.correction !== null && !statement.correction.weak) {
        const earlier = mentionedTarget(statement, mentioned, known());
        if (earlier !== null) {
          target = earlier;
          score = SURE_TARGET;
        }
      }
      if (target !== null) {
        const old = statement.oldValues;
        // A removal removes (unless what follows gives the new value); what it names is what goes, not news.
        if (statement.removal !== null) return { type: 'remove', statement, target, old };
        // "1 March was unrealistic with Antwerp joining": the fact is named, its new value is still to come.
        if (!replacesOldValues(statement, target)) return { type: 'correct', statement, target, old };
        // New words alone (no new value) change a fact only when the match is sure.
        if (statement.informative && (newSpecifics(statement, target).length > 0 || (score >= SURE_TARGET && bringsNews(statement, target)))) {
          apply(correctionAction(statement, target), statement, sources);
          return null;
        }
        return statement.correction !== null && namesIt ? { type: 'correct', statement, target, old } : null;
      }
      // A correction or removal with nothing to correct is kept only if it says something itself.
      if (statement.removal !== null && statement.kind === 'fact') return null;
      if (!statement.informative || statement.keyless) {
        return statement.correction !== null && namesIt ? { type: 'correct', statement, target: null, old: statement.oldValues } : null;
      }
      if (statement.kind === 'fact' && statement.specifics.length === 0) return null;
    }
    if (!statement.informative || statement.keyless || !aboutTheTask(statement, message, chitChat)) return null;
    // A correction of nothing known says its new value plainly ("make it no caffeine after 2 pm" → "no caffeine after 2 pm").
    const opening = statement.correction !== null && statement.value.toLowerCase().startsWith(statement.correction.phrase);
    const value = opening ? withoutChangeWords(statement.value) : statement.value;
    add(statement, statement.key, (keyText) => statementText(keyText, value), statement.kind, sources, statement.weight);
    return null;
  };

  for (const { message, statements } of groups) {
    const chitChat = message.message.speaker === null && CHIT_CHAT_MARKERS.test(message.prose);
    const bySentence = new Map<number, Statement[]>();
    for (const statement of statements) {
      const list = bySentence.get(statement.sentence.index) ?? [];
      list.push(statement);
      bySentence.set(statement.sentence.index, list);
    }
    let open: OpenCorrection | null = null;
    const mentioned: Specific[] = [];
    for (const sentence of message.sentences) {
      const list = bySentence.get(sentence.index);
      if (list === undefined) {
        // "March 15 is off.": no statement, but it names the fact an open correction changes.
        if (open !== null && sentence.specifics.length > 0) {
          const old = oldValuesIn(sentence);
          if (old.length > 0) {
            open.old.push(...old);
            open.target ??= holderOf(old, known());
          }
        }
        mentioned.push(...sentence.specifics);
        continue;
      }
      for (const statement of list) {
        if (open !== null && open.statement !== statement && continues(open, statement)) {
          resolve(open, statement);
          open = null;
          continue;
        }
        const next = handle(statement, message, chitChat, mentioned);
        if (next !== null) {
          if (open !== null) finish(open);
          open = next;
        }
      }
      mentioned.push(...sentence.specifics);
    }
    if (open !== null) finish(open);
  }

  const lines = [...pending.values()]
    .filter((line) => line.text.length <= MAX_LINE_CHARACTERS && grounded(line))
    .filter((line) => line.targetId === null || normalizeText(line.text) !== normalizeText(document.get(line.targetId)?.text ?? ''))
    .sort((a, b) => b.weight - a.weight || a.order - b.order)
    .slice(0, input.settings.maxFactsPerTurn)
    .sort((a, b) => a.order - b.order);

  const add_: DiffEntry[] = [];
  const update: DiffEntry[] = [];
  for (const line of lines) {
    if (line.targetId !== null) update.push({ text: line.text, kind: line.kind, key: line.key, sourceMessageIds: line.sources });
    else add_.push({ text: line.text, kind: line.kind, key: line.key, sourceMessageIds: line.sources });
  }
  return { add: add_, update, remove: removals };
}

function quote(text: string, limit: number): string {
  const parts = text.trim().split(/\s+/u);
  return parts.length <= limit ? text.trim() : `${parts.slice(0, limit).join(' ')} …`;
}

type ValueType = 'money' | 'percent' | 'date' | 'number' | 'name';

const MONEY = /[$€£¥]\s?\d|\d\s?(?:k|usd|eur|gbp|chf|dollars?|euros?|pounds?)\b/iu;
const PERCENT = /\d\s?(?:%|percent)/iu;
const DATE =
  /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|\d{4}-\d{2}-\d{2}|\b(?:today|tomorrow|yesterday|tonight)\b/iu;

/** The kinds of value a fact line holds, remembered (lines recur turn after turn). */
const valueTypesOfText: (text: string) => ReadonlySet<ValueType> = boundedMemo(computeValueTypes, 10_000);

function computeValueTypes(text: string): Set<ValueType> {
  const value = text.slice(text.indexOf(':') + 1);
  const types = new Set<ValueType>();
  if (MONEY.test(value)) types.add('money');
  if (PERCENT.test(value)) types.add('percent');
  if (DATE.test(value)) types.add('date');
  if (types.size === 0 && /\d/u.test(value)) types.add('number');
  if (/\s\p{Lu}[\p{L}\p{N}]/u.test(value.trim())) types.add('name');
  return types;
}

function valueTypesOf(statement: Statement, existing: KnownFact): Set<ValueType> {
  const types = new Set<ValueType>();
  // Values the fact already holds ("the Almirante" in a line about the Almirante) are its subject, not a new value.
  for (const item of newSpecifics(statement, existing)) {
    if (item.type === 'money' || item.type === 'percent' || item.type === 'date') types.add(item.type);
    else if (item.type === 'number' || item.type === 'quantity' || item.type === 'version') types.add('number');
    else if (item.entity !== 'person') types.add('name');
  }
  return types;
}

/**
 * Whether a statement sharing a fact's key restates the same thing (a new value of the same kind:
 * "the deadline is March 17" after "the deadline is March 3") rather than something else about it
 * ("the database is about 42 GB" after "we were thinking Aurora PostgreSQL"). A line never replaces
 * a more binding one (a plain fact does not overwrite a requirement).
 */
function sameSubject(existing: KnownFact, statement: Statement, kind: FactKind): boolean {
  if (KIND_STRENGTH[existing.kind] > KIND_STRENGTH[kind]) return false;
  const before = valueTypesOfText(existing.text);
  const now = valueTypesOf(statement, existing);
  if (before.size === 0 && now.size === 0) return true;
  for (const type of now) if (before.has(type)) return true;
  return false;
}

/** A key for a second thing under a taken key: the key plus a telling word of the value ("database size" …). */
function refinedKey(keyText: string, statement: Statement, kind: FactKind): string {
  const taken = new Set(words(keyText));
  const tokens = statement.sentence.tokens;
  for (let index = statement.range[0]; index < statement.range[1]; index += 1) {
    const token = tokens[index];
    if (token === undefined || (token.pos !== 'noun' && token.pos !== 'proper') || token.entity === 'person' || token.hasDigit) continue;
    const word = normalizeText(token.text.replace(/[’']s$/u, ''));
    if (word.length < 3 || taken.has(word) || STOP_WORDS.has(word) || META_NOUNS.has(word)) continue;
    return `${keyText} ${word}`;
  }
  return `${keyText} ${kind === 'fact' ? 'details' : kind}`;
}

/**
 * The parts of a clause a statement is read from: its cues, the stretch of it around what it is about
 * (a long sentence gives only the clause around its cue or first value), the specifics there, where its
 * subject starts and ends, and whether it speaks of the speaker or of a named person.
 */
import type { AnalysedSentence } from './analysis.js';
import { primaryCue, type Cue } from './cues.js';
import { FIRST_PERSON } from './function-words.js';
import { clauseSpecifics } from './old-values.js';
import type { Specific } from './specifics.js';
import { clauseAround, firstClauseStart, hasPredicateIn, predicateStart, skipAnnouncer, skipOpeners } from './statement-clauses.js';
import type { TaggedToken } from './tagging.js';
import { endsClause } from './tokens.js';

export interface StatementParts {
  sentence: AnalysedSentence;
  tokens: readonly TaggedToken[];
  /** The clause without its openers and the words that only announce it. */
  fullRange: [number, number];
  /** The cues of the clause (and a correction opener before the sentence's first clause). */
  cues: Cue[];
  /** The cue that sets the kind; a keyword cue ("budget") only while it names the subject (see statement-key). */
  primary: Cue | null;
  correction: Cue | null;
  removal: Cue | null;
  /** The cue the statement is read around: the primary, else the removal, else the correction. */
  anchorCue: Cue | null;
  /** The tokens the statement is read from: at most 30, around the anchor. */
  from: number;
  to: number;
  startOffset: number;
  endOffset: number;
  specifics: Specific[];
  subjectStart: number;
  /** Where the predicate starts. */
  subjectEnd: number;
  subjectTokens: TaggedToken[];
  hasPredicate: boolean;
  /** The clause opens with a condition or a question word ("if", "maybe", "what"). */
  conditional: boolean;
  /** A person named in the subject. */
  person: Specific | null;
  /** The subject is the speaker ("I", "we", "my") or a named person. */
  personal: boolean;
  /** The specifics that can make a plain fact: not a lone person's name in a clause without a verb. */
  meaningful: Specific[];
}

const CONDITIONAL_OPENERS = new Set(['if', 'when', 'whenever', 'suppose', 'imagine', 'maybe', 'perhaps', 'what', 'how', 'why']);

export function isPronounSubject(tokens: readonly TaggedToken[], from: number, end: number): boolean {
  for (let index = from; index < end; index += 1) {
    const token = tokens[index];
    if (token !== undefined && (token.pos === 'noun' || token.pos === 'proper')) return false;
  }
  return true;
}

function personIn(specifics: readonly Specific[], from: number, to: number): Specific | null {
  return specifics.find((item) => item.type === 'name' && item.entity === 'person' && item.start >= from && item.start < to) ?? null;
}

/** The cues within `fullRange`; a correction opener before the clause ("Actually, …") still corrects it. */
function clauseCues(sentence: AnalysedSentence, clause: [number, number], fullRange: [number, number]): Cue[] {
  const tokens = sentence.tokens;
  let firstStart: number | null = null;
  const inRange = (cue: Cue): boolean =>
    (cue.start >= fullRange[0] || (cue.kind === 'correction' && clause[0] === (firstStart ??= firstClauseStart(tokens, sentence)))) && cue.end <= fullRange[1];
  return sentence.cues.filter(inRange);
}

/** The subject starts after any announcing fragment ("One hard rule: we …", "For the backend, we …"). */
function subjectStartOf(tokens: readonly TaggedToken[], from: number, subjectEnd: number): number {
  for (let index = subjectEnd - 2; index >= from; index -= 1) {
    const token = tokens[index];
    if (token !== undefined && endsClause(token)) return index + 1;
  }
  return from;
}

/** The parts of the clause `clause` of the sentence (see `StatementParts`). */
export function statementParts(sentence: AnalysedSentence, clause: [number, number]): StatementParts {
  const tokens = sentence.tokens;
  const fullRange = skipAnnouncer(tokens, skipOpeners(tokens, clause));
  const cues = clauseCues(sentence, clause, fullRange);
  // A keyword cue ("budget", "deadline") sets the kind only when it names the statement's subject (checked in statement-key).
  const primary = primaryCue(cues);
  const correction = cues.find((cue) => cue.kind === 'correction' && !cue.weak) ?? cues.find((cue) => cue.kind === 'correction') ?? null;
  const removal = cues.find((cue) => cue.kind === 'removal') ?? null;
  const anchorCue = primary ?? removal ?? correction;
  const firstSpecific = sentence.specifics[0];
  const anchor = anchorCue?.start ?? (firstSpecific === undefined ? 0 : Math.max(0, tokens.findIndex((token) => token.end > firstSpecific.start)));
  const [from, to] = clauseAround(tokens, fullRange, anchor, 30);
  const startOffset = tokens[from]?.start ?? 0;
  const endOffset = tokens[to - 1]?.end ?? 0;
  const specifics = clauseSpecifics(sentence, startOffset, endOffset);

  const subjectEnd = predicateStart(tokens, from, to, primary ?? removal);
  const hasPredicate = hasPredicateIn(tokens, from, to);
  const firstWord = tokens[from]?.lower ?? '';
  const subjectStart = subjectStartOf(tokens, from, subjectEnd);
  const subjectTokens = tokens.slice(subjectStart, subjectEnd);
  const firstPerson = subjectTokens.some((token) => FIRST_PERSON.has(token.lower)) || (subjectEnd === from && FIRST_PERSON.has(firstWord));
  const person = personIn(specifics, startOffset, tokens[subjectEnd]?.start ?? endOffset);
  const meaningful = specifics.filter((item) => !(item.type === 'name' && item.entity === 'person' && specifics.length === 1 && item === person && !hasPredicate));
  return {
    sentence, tokens, fullRange, cues, primary, correction, removal, anchorCue, from, to, startOffset, endOffset, specifics,
    subjectStart, subjectEnd, subjectTokens, hasPredicate, conditional: CONDITIONAL_OPENERS.has(firstWord), person,
    personal: firstPerson || person !== null, meaningful,
  };
}

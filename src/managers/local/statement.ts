/**
 * A statement: one fact line a clause of a sentence contributes to the base-truth document, as
 * `key: value` (the key names what the line is about, the value is the clause verbatim), with the cues
 * and values behind it; and what reading a message's statements needs to know about the message.
 */
import type { FactKind } from '../../core/types.js';
import type { AnalysedSentence } from './analysis.js';
import type { Cue } from './cues.js';
import type { Specific } from './specifics.js';

export interface Statement {
  kind: FactKind;
  /** What the line is about: a short lower-case noun phrase. */
  key: string;
  /** The clause, verbatim. */
  value: string;
  messageId: string;
  sentence: AnalysedSentence;
  /** The cue that decided the kind (null for plain facts). */
  cue: Cue | null;
  correction: Cue | null;
  removal: Cue | null;
  /** The subject is the speaker ("I", "we", "my") or a named person. */
  personal: boolean;
  /** Specifics inside the statement's clause. */
  specifics: Specific[];
  /** The category the statement is about, when its object is a known product ("database"). */
  category: string | null;
  /** Key words of the thing acted on ("redis cache" in "forget the Redis cache"). */
  object: string | null;
  /** No key could be found: the statement can only correct a fact it targets ("make that $45k"). */
  keyless: boolean;
  /** Where the key came from: the subject, a keyword cue, a product category, the object, or plain content words. */
  keySource: KeySource;
  /** The value starts at the predicate (the subject is the key or a pronoun), so `key: value` reads as a sentence. */
  predicateValue: boolean;
  /** Ranking weight: exceptions first, then constraints, corrections, goals, preferences, facts. */
  weight: number;
  /** The value holds something specific: a number, a date, a name or a substantive noun. */
  informative: boolean;
  /** Specifics the clause sets aside as the old value ("not $1,200", "from 14 May to …", "March 15 is off"). */
  oldValues: Specific[];
  /** The subject is a pronoun or missing (an instruction): the clause continues what was said before. */
  pronounSubject: boolean;
  /** Token range of the clause in the sentence. */
  range: [number, number];
  /** The clause from its subject on, verbatim (openers dropped), for a line whose key comes from elsewhere. */
  clauseText: string;
  /** An accepted proposal ("Agreed: TTL 60 seconds on Thursday"): a decision, however short the turn. */
  agreed: boolean;
}

export type KeySource = 'subject' | 'keyword' | 'category' | 'object' | 'content';

export interface StatementContext {
  messageId: string;
  /** The speaker's name, used to tell people apart in keys ("caroline kids"). */
  speaker: string | null;
  maxValueWords: number;
  /**
   * The person last named in the message (updated as statements are read), so "she" in
   * "Melanie loves pottery and she has 3 kids" is Melanie.
   */
  lastPerson?: { name: string | null };
  /**
   * The statements may change the document (default): fill `oldValues` and `clauseText`. A message that
   * cannot add facts (an unnamed assistant by default) only needs its statements for tier 1.
   */
  forDiff?: boolean;
}

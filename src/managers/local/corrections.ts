/**
 * Corrections: a statement with "actually", "no longer", "instead", "changed to", "not … anymore" …
 * changes or drops a fact the conversation already holds. This module finds which fact it speaks
 * about and what the new line is.
 */
import { normalizeText, wordSimilarity, words } from '../../core/text.js';
import type { FactKind } from '../../core/types.js';
import { categoryOf } from './categories.js';
import type { Specific } from './entities.js';
import type { Statement } from './fact-extraction.js';
import { STOP_WORDS } from './function-words.js';

/** A fact a correction may target: one of the document, or one proposed earlier in the same turn. */
export interface KnownFact {
  /** The fact id, or a pending id for a line of this turn. */
  id: string;
  /** The normalised key. */
  key: string;
  /** The key as written before the `:` of the line (same normalised form as `key`). */
  keyText: string;
  text: string;
  kind: FactKind;
  /** Recency: later facts win ties. */
  order: number;
  pending: boolean;
}

export type CorrectionAction =
  | { type: 'update'; target: KnownFact; text: string; kind: FactKind }
  | { type: 'remove'; target: KnownFact; reason: string };

/** The key as written in a fact line, when it normalises to the stored key; otherwise the stored key. */
export function displayKey(key: string, text: string): string {
  const colon = text.indexOf(':');
  if (colon > 0) {
    const written = text.slice(0, colon).trim();
    if (normalizeText(written) === key) return written;
  }
  return key;
}

function stem(word: string): string {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

function contentWords(text: string): Set<string> {
  return new Set(words(text).filter((word) => !STOP_WORDS.has(word)).map(stem));
}

const TYPE_SHAPES: Partial<Record<Specific['type'], RegExp>> = {
  money: /[$€£¥]\s?\d|\d\s?(?:k|usd|eur|gbp|dollars?|euros?|pounds?|bucks)\b/iu,
  percent: /\d\s?(?:%|percent)/iu,
  date: /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\d{4}-\d{2}-\d{2}/iu,
};

function hasCategory(text: string, category: string): boolean {
  for (const match of text.matchAll(/\b\p{Lu}[\p{L}\p{N}.+#-]*/gu)) {
    if (categoryOf(match[0]) === category) return true;
  }
  return false;
}

/** How strongly a statement speaks about a known fact (0: not at all). */
function targetScore(statement: Statement, fact: KnownFact, sentenceWords: ReadonlySet<string>): number {
  let score = 0;
  const statementKey = normalizeText(statement.key);
  if (statementKey === fact.key) score = 10;
  const keyWords = [...contentWords(fact.key)];
  if (keyWords.length > 0 && keyWords.every((word) => sentenceWords.has(word))) score = Math.max(score, 6 + Math.min(3, keyWords.length));
  if (wordSimilarity(statementKey, fact.key) >= 0.6) score = Math.max(score, 5);
  if (statement.category !== null && (fact.key === statement.category || hasCategory(fact.text, statement.category))) {
    score = Math.max(score, 7);
  }
  if (statement.object !== null) {
    const objectWords = [...contentWords(statement.object)];
    const factWords = contentWords(fact.text);
    if (objectWords.length > 0 && objectWords.every((word) => factWords.has(word))) score = Math.max(score, 5 + Math.min(2, objectWords.length));
  }
  // A name the correction mentions that the fact holds ("I meant Berlin, not Munich").
  const factText = ` ${normalizeText(fact.text)} `;
  if (statement.specifics.some((item) => item.type === 'name' && factText.includes(` ${normalizeText(item.text)} `))) {
    score = Math.max(score, 6);
  }
  const factWords = contentWords(fact.text);
  let shared = 0;
  for (const word of sentenceWords) if (factWords.has(word)) shared += 1;
  if (shared >= 2) score = Math.max(score, 3 + Math.min(3, shared));
  return score;
}

/** A short correction with no words of its own ("make that $45k") targets the newest fact holding the same kind of value. */
function sameValueTarget(statement: Statement, facts: readonly KnownFact[]): KnownFact | null {
  if (statement.sentence.tokens.length > 12) return null;
  for (const item of statement.specifics) {
    const shape = TYPE_SHAPES[item.type];
    if (shape === undefined) continue;
    const matching = facts.filter((fact) => shape.test(fact.text));
    const newest = matching.sort((a, b) => b.order - a.order)[0];
    if (newest !== undefined) return newest;
  }
  return null;
}

/** The known fact a correcting statement speaks about, or null. */
export function findTarget(statement: Statement, facts: readonly KnownFact[]): KnownFact | null {
  if (facts.length === 0) return null;
  const sentenceWords = contentWords(statement.sentence.text);
  const strong = (statement.correction !== null && !statement.correction.weak) || statement.removal !== null;
  const threshold = strong ? 5 : 9;
  let best: KnownFact | null = null;
  let bestScore = 0;
  for (const fact of facts) {
    const score = targetScore(statement, fact, sentenceWords);
    if (score > bestScore || (score === bestScore && best !== null && fact.order > best.order)) {
      best = fact;
      bestScore = score;
    }
  }
  if (best !== null && bestScore >= threshold) return best;
  return strong && statement.correction !== null ? sameValueTarget(statement, facts) : null;
}

/** Specifics of the statement that the target fact does not already hold: the new values. */
function newSpecifics(statement: Statement, target: KnownFact): Specific[] {
  const old = ` ${normalizeText(target.text)} `;
  return statement.specifics.filter((item) => !old.includes(` ${normalizeText(item.text)} `));
}

const CHANGE_PREFIX =
  /^(?:(?:it's|its|it is|that's|that is|is|are|was|were|will be|would be|has been|have been|has|have|now|currently|actually|instead|officially|then|so|and|but|just|to)\s+)*(?:(?:changed|change|changing|moved|move|moving|switched|switch|switching|increased|decreased|raised|lowered|cut|bumped|pushed back|pushed|postponed|updated|reduced|extended|dropped|went up|gone up|going|set|make that|make it|meant|mean)\s+(?:to|up to|down to|back to|until|till|from\s+\S+\s+to|it to|that to)?\s*)?/iu;

/** The new value of a corrected fact: the clause holding the new specific, without "changed to", "it's" …. */
function correctedValue(statement: Statement, target: KnownFact): string {
  const fresh = newSpecifics(statement, target)[0];
  let value = statement.value;
  if (fresh !== undefined) {
    const clauses = statement.value.split(/,\s+|;\s+|\s+but\s+|\s+[–—]\s+/u);
    const holding = clauses.find((clause) => clause.includes(fresh.text));
    if (holding !== undefined) value = holding;
  }
  const stripped = value.replace(CHANGE_PREFIX, '').trim();
  return stripped === '' ? value.trim() : stripped;
}

function quote(text: string, limit: number): string {
  const parts = text.trim().split(/\s+/u);
  return parts.length <= limit ? text.trim() : `${parts.slice(0, limit).join(' ')} …`;
}

/** What a correcting statement does to its target: drop it, or replace its line. */
export function correctionAction(statement: Statement, target: KnownFact): CorrectionAction {
  const fresh = newSpecifics(statement, target);
  if (statement.removal !== null && fresh.length === 0) {
    return { type: 'remove', target, reason: `${statement.removal.phrase}: "${quote(statement.sentence.text, 24)}"` };
  }
  const kind = statement.cue !== null ? statement.kind : target.kind;
  return { type: 'update', target, text: `${target.keyText}: ${correctedValue(statement, target)}`, kind };
}

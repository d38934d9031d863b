/**
 * How a change rewrites a fact line: the one value it sets aside swapped for the new one, the one part of
 * a line of several parts that holds it, or the whole line with the attributes the change leaves standing.
 */
import { numbersIn } from '../../core/grounding.js';
import { normalizeText } from '../../core/text.js';
import type { Claim } from './claims.js';
import type { Known } from './known-line.js';
import { factHolds } from './corrections.js';
import type { Specific } from './specifics.js';
import { classesOfLine, classOfSpecific, COMPETING_CLASSES, sameClass } from './value-classes.js';

/** "54 now, not 60" of a budget of $60,000: a bare number may stand for thousands of an amount. */
export function holdsValue(text: string, item: Specific): boolean {
  if (factHolds(text, item)) return true;
  if (item.type !== 'number' || !/^\d{1,3}$/u.test(item.text.trim())) return false;
  const thousands = String(Number(item.text.trim()) * 1000);
  return /[$€£¥]|\b(?:k|usd|eur|gbp|dollars?|euros?|pounds?)\b/iu.test(text) && numbersIn(text).includes(thousands);
}

/**
 * The target line with the one value the claim sets aside replaced by its one new value of the same
 * class, when the line holds more than that value or is about another subject; null otherwise.
 */
export function swappedValue(target: Known, claim: Claim): string | null {
  const [old] = claim.oldValues;
  if (old === undefined || claim.oldValues.length > 1) return null;
  const oldClass = classOfSpecific(old);
  const fresh = claim.values.filter((item) => sameClass(classOfSpecific(item), oldClass));
  const [next] = fresh;
  if (next === undefined || fresh.length !== 1) return null;
  const colon = target.text.indexOf(':');
  const sameSubject = claim.key !== null && normalizeText(claim.key) === target.key;
  if (sameSubject && numbersIn(target.text.slice(colon + 1)).length < 2) return null;
  // A bare number set aside ("not 12") swaps for the new number alone ("15", not "15 seats").
  const replacement = /^\d[\d,.]*$/u.test(old.text.trim()) ? (/\d[\d,.]*/u.exec(next.text)?.[0] ?? next.text) : next.text;
  const at = factHolds(target.text, old) ? target.text.toLowerCase().indexOf(old.text.toLowerCase(), colon + 1) : -1;
  if (at > colon) return `${target.text.slice(0, at)}${replacement}${target.text.slice(at + old.text.length)}`;
  // "54 now, not 60" in "$60,000 all in" gives "$54,000 all in".
  const shorthand = holdsValue(target.text, old) ? /[$€£¥]?\s?\d{1,3}[,.]000\b/u.exec(target.text.slice(colon + 1)) : null;
  if (shorthand !== null && /^\d{1,3}$/u.test(replacement)) {
    const start = colon + 1 + shorthand.index;
    const written = shorthand[0].replace(/\d{1,3}(?=[,.]000)/u, replacement);
    return `${target.text.slice(0, start)}${written}${target.text.slice(start + shorthand[0].length)}`;
  }
  // The same number written differently ("12" for "12 contractor seats"): swap the number.
  const [oldNumber] = numbersIn(old.text);
  const newNumber = /\d[\d,.]*/u.exec(next.text)?.[0];
  if (oldNumber === undefined || newNumber === undefined) return null;
  for (const match of target.text.matchAll(/\d[\d,.]*\d|\d/gu)) {
    if (match.index <= colon || numbersIn(match[0])[0] !== oldNumber) continue;
    // (A number bound to a unit or a time, "1pm", "5th", "10:30", is another value.)
    if (/^(?:[\p{L}:]|\.\d)/u.test(target.text.slice(match.index + match[0].length))) continue;
    return `${target.text.slice(0, match.index)}${newNumber}${target.text.slice(match.index + match[0].length)}`;
  }
  return null;
}

/**
 * The target line with the one comma-separated part that holds the claim's old value replaced by the
 * claim's value, when the line has other parts: "parse_events(path) returning a list of dicts, with ts
 * parsed from ISO 8601 strings" keeps the list and takes the new ts. Null otherwise.
 */
export function swappedPart(target: Known, claim: Claim): string | null {
  // The part holding the old value, or, for a headcount changed without saying the old one ("that's
  // thirteen of us now"), the one part holding a count of people.
  const byCount = claim.oldValues.length === 0 && claim.correction && claim.classes.includes('count');
  const holds = (part: string): boolean => (byCount ? classesOfLine(`x: ${part}`).has('count') : claim.oldValues.some((item) => factHolds(part, item)));
  if (claim.oldValues.length === 0 && !byCount) return null;
  // "move to Tuesday, Thursday, Saturday and Sunday" restates a whole list, not one part of it.
  const [old] = claim.oldValues;
  if (old !== undefined && claim.values.filter((item) => sameClass(classOfSpecific(item), classOfSpecific(old))).length > 1) return null;
  const colon = target.text.indexOf(':');
  const parts = target.text.slice(colon + 1).split(/(,\s+|;\s+)/u);
  const holding = parts.map((part, index) => (index % 2 === 0 && holds(part) ? index : -1)).filter((index) => index >= 0);
  if (parts.length < 3 || holding.length !== 1) return null;
  const [at = 0] = holding;
  const label = claim.key !== null && normalizeText(claim.key) !== target.key && !byCount ? `${claim.key}: ` : '';
  parts[at] = `${at === 0 ? ' ' : ''}${label}${claim.value}`;
  return `${target.text.slice(0, colon + 1)}${parts.join('')}`;
}

/**
 * The parts of the target line a change of another attribute leaves standing: "budget: €18,000 a year,
 * for 42 agent seats" raised to €22,000 still covers 42 seats. A part stays when it holds a value of a
 * class the claim gives none of (and not a value the claim sets aside); '' when none does.
 */
export function keptParts(target: Known, claim: Claim): string {
  if (target.factId === null || claim.classes.length === 0) return '';
  const parts = target.text.slice(target.text.indexOf(':') + 1).split(/[,;]\s+/u);
  if (parts.length < 2) return '';
  const kept = parts.filter((part) => {
    const held = [...classesOfLine(`x: ${part}`)].filter((value) => COMPETING_CLASSES.has(value));
    // (A bare "8" from "Anika, 8, and Vihaan, 6" is no attribute.)
    if (held.length === 0 || part.trim().split(/\s+/u).length < 3 || claim.oldValues.some((item) => factHolds(part, item))) return false;
    return held.every((value) => !claim.classes.some((wanted) => sameClass(value, wanted)));
  });
  return kept.map((part) => `; ${part.trim()}`).join('');
}

/** The key as the fact line writes it. */
export function shownKey(entry: Known): string {
  const colon = entry.text.indexOf(':');
  const written = colon > 0 ? entry.text.slice(0, colon).trim() : '';
  return written !== '' && normalizeText(written) === entry.key ? written : entry.key;
}

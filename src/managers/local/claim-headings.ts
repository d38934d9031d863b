/**
 * Headings: a label ("Budget:", "Ridgeline:") or a clause ending in a colon or a dash that only
 * announces what follows ("Contractors:", "Ridgeline Remodeling —") makes no claim of its own; what it
 * names heads the next clause of its sentence.
 */
import type { AnalysedSentence } from './analysis.js';
import { labelOf, subjectOf, type Discourse } from './claim-subject.js';
import { hasPredicate, type Span } from './clauses.js';
import { META_NOUNS } from './function-words.js';

/** Whether the clause holds an amount, a measure, a number or a day (not only a name). */
function statesValue(sentence: AnalysedSentence, span: Span): boolean {
  const from = sentence.tokens[span[0]]?.start ?? 0;
  const to = sentence.tokens[span[1] - 1]?.end ?? 0;
  return sentence.specifics.some((item) => item.start >= from && item.end <= to && item.type !== 'name');
}

/** A clause ending in a colon or a dash that only announces or names what follows ("Contractors:", "Ridgeline Remodeling —"). */
function announces(sentence: AnalysedSentence, span: Span, last: boolean): boolean {
  if (last) return false;
  const tokens = sentence.tokens;
  const trailing = tokens[span[1] - 1]?.trailing ?? '';
  // ("the list is down to 96 now, because …: no plus-ones" states its value before what it announces.)
  if (/:/u.test(trailing)) return !(hasPredicate(tokens, span[0], span[1]) && statesValue(sentence, span));
  return /[—–]/u.test(trailing) && !hasPredicate(tokens, span[0], span[1]) && span[1] - span[0] <= 4;
}

/** A capitalised word and a small whole number, ending in a colon: "Turn 2:", "Day 3:". */
function isCounter(tokens: AnalysedSentence['tokens'], span: Span): boolean {
  const [word, count] = [tokens[span[0]], tokens[span[0] + 1]];
  return span[1] - span[0] === 2 && word?.capitalised === true && /^\d{1,3}$/u.test(count?.text ?? '') && /:/u.test(count?.trailing ?? '');
}

/**
 * A label ("Budget:") or a clause announcing what follows ("Ridgeline Remodeling —") heads the next
 * clause, and makes no claim of its own. Whether the clause is one.
 */
export function headsNext(discourse: Discourse, sentence: AnalysedSentence, span: Span, last: boolean): boolean {
  const tokens = sentence.tokens;
  // "Turn 2:", "Day 3:", "Step 4:": a counter heads the clause and names nothing it is about.
  if (!last && isCounter(tokens, span)) return true;
  const label = labelOf(tokens, span);
  if (label !== null && !last) {
    discourse.label = label;
    return true;
  }
  if (!announces(sentence, span, last)) return false;
  // What it names heads the next clause ("Ridgeline Remodeling — the owner is Tom Becker").
  const named = subjectOf(sentence, span, 'chatter', null, discourse);
  // ("Bad news: the budget got cut", "Quick update — …" announce; they name nothing.)
  const announcing = tokens.slice(span[0], span[1]).some((token) => META_NOUNS.has(token.lower));
  if (!hasPredicate(tokens, span[0], span[1]) && named.key !== null && !named.pronoun && !announcing) discourse.label = named.key;
  return true;
}

/**
 * Appositives: a phrase between commas after a subject. "Halcombe Hall, near Bakewell, is holding the
 * date" is about Halcombe Hall; "Joel's parents, Femi and Carol, split up …" names the people the key
 * "joel parents" is, so a later "they cannot be put at the same table" of that key reads "Femi and Carol
 * cannot be put at the same table".
 */
import type { AnalysedSentence } from './analysis.js';
import { keyFromTokens } from './noun-phrases.js';

/** What a reading keeps of the people an appositive named for a key ("Joel's parents, Femi and Carol,"), whom "they" of that key stands for. */
export interface NamedPeople {
  named?: { key: string; names: string } | null;
}

/** Words that may stand between an appositive's closing comma and the verb ("…, near Bakewell, is now holding"). */
const BEFORE_VERB = new Set(['copula', 'auxiliary', 'modal', 'adverb', 'negation']);

/**
 * Where an appositive between the subject and its verb starts: "Halcombe Hall, near Bakewell, is holding
 * the date" is about Halcombe Hall, not Bakewell. Null unless two commas enclose it, the second just before the verb.
 */
export function appositiveStart(sentence: AnalysedSentence, from: number, verb: number): number | null {
  const tokens = sentence.tokens;
  const commaBefore = (index: number): boolean => sentence.text.slice(tokens[index - 1]?.end ?? 0, tokens[index]?.start ?? 0).includes(',');
  let closing = verb;
  while (closing > from + 1 && !commaBefore(closing) && BEFORE_VERB.has(tokens[closing - 1]?.pos ?? '')) closing -= 1;
  if (closing <= from + 1 || !commaBefore(closing)) return null;
  for (let index = closing - 1; index > from; index -= 1) if (commaBefore(index)) return index;
  return null;
}

/** Words that join the names of an appositive. */
const JOINING = new Set(['and', '&']);

/**
 * Note the people a sentence's opening appositive names for its subject: "Joel's parents, Femi and Carol,
 * split up …" gives "joel parents" → "Femi and Carol". Nothing unless the words between the first two
 * commas are names of people and the words joining them.
 */
export function noteNamedPeople(sentence: AnalysedSentence, discourse: NamedPeople): void {
  if (!sentence.text.includes(',')) return;
  const tokens = sentence.tokens;
  const commaAfter = (index: number): boolean => sentence.text.slice(tokens[index]?.end ?? 0, tokens[index + 1]?.start ?? sentence.text.length).includes(',');
  const first = tokens.findIndex((_, index) => commaAfter(index));
  if (first < 1) return;
  let last = first + 1;
  while (last < tokens.length && !commaAfter(last)) last += 1;
  const words = tokens.slice(first + 1, last + 1);
  const names = words.filter((token) => token.pos === 'proper');
  if (names.length === 0 || !names.some((token) => token.entity === 'person') || !words.every((token) => names.includes(token) || JOINING.has(token.lower))) return;
  const key = keyFromTokens(tokens, 0, first + 1, 3);
  if (key !== null) discourse.named = { key, names: sentence.text.slice(tokens[first + 1]?.start ?? 0, tokens[last]?.end ?? 0) };
}

/** A line value of `key` that opens with "they", "she" or "he", with the people an appositive named for the key in its place. */
export function withNamedPeople(value: string, key: string | null, discourse: NamedPeople): string {
  const named = discourse.named;
  if (named === null || named === undefined || key !== named.key) return value;
  return value.replace(/^(?:they|she|he)(?=\s)/iu, named.names);
}

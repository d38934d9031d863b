/**
 * A statement the speaker takes back: "I said Finance wanted annual upfront, but they've changed their
 * minds: quarterly invoicing is better". Quoting themself adds nothing new (see clause-acts), but the
 * turn of phrase after it says the quoted claim no longer holds, so the line that stated it goes.
 */
import type { AnalysedSentence } from './analysis.js';
import { contentStems } from './claim-doubt.js';
import type { Known } from './known-line.js';

/** "I said …, but …", "I mentioned that …, but …", "I told you …, but …": what was said, and what follows. */
const SELF_REPORT = /^(?:(?:and|but|so|oh|ok|okay|well|also|sorry)[,\s]+)*i\s+(?:said|mentioned|told\s+you)\s+(?:that\s+)?(.+?)[,;]?\s+but\s+(.+)$/isu;

/**
 * Words opening the clause after "but" that say what was said no longer holds: "they've changed their
 * minds", "that's changed", "not any more", "scratch that", "I was wrong". Only at its start: in "but TAP
 * no longer flies direct" the change is TAP's, not the speaker's claim.
 */
const REVERSAL = /^(?:\S+\s+){0,2}?changed\s+(?:their|his|her|my|our)\s+minds?\b|^(?:that|this|it)(?:['’]s|\s+has|\s+is)\s+(?:changed|off)\b|^not\s+any\s?more\b|^scratch\s+that\b|^(?:i|that)\s+was\s+wrong\b/iu;

/** The claim a sentence takes back, or null when it takes nothing back. */
export function withdrawnClaim(sentence: AnalysedSentence): string | null {
  const match = SELF_REPORT.exec(sentence.text.trim());
  if (match === null || !REVERSAL.test((match[2] ?? '').trim())) return null;
  return match[1] ?? null;
}

/**
 * The one line that states the claim taken back: it shares at least two content words with it (a
 * subject and what was said of it: "finance" and "upfront"), and no other line shares as many. Null when
 * none or several do.
 */
export function lineOfClaim(claim: string, lines: Iterable<Known>): Known | null {
  const said = contentStems(claim);
  const scored = [...lines].map((line) => ({ line, shared: [...contentStems(line.text)].filter((word) => said.has(word)).length }));
  const most = Math.max(0, ...scored.map((entry) => entry.shared));
  const best = scored.filter((entry) => entry.shared === most);
  return most >= 2 && best.length === 1 ? (best[0]?.line ?? null) : null;
}

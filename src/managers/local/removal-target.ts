/**
 * What a removal drops: the fact under its key ("the budget is off"), the one keyed by the person it
 * names ("Jonas is out"), the one its clause describes, the one naming what it names, or the one whose
 * key ends with its key ("scrap the part-ex"). Sharing one word is not enough to drop a fact.
 */
import { normalizeText } from '../../core/text.js';
import type { Claim } from './claims.js';
import { subjectWords } from './claim-target.js';
import { factHolds } from './corrections.js';
import type { Known } from './known-line.js';
import type { KnownLines } from './known-lines.js';

/** A word of choosing at most five words before the end: "found a walker, though, " (Jess), "we hired " (Tom). */
const CHOSEN = /\b(?:found|booked|hired|chose|picked|went with|going with)\b(?:[\s,]+[\p{L}'’-]+){0,5}[\s,]*$/u;

/** Whether `line` names `name` just after a word of choosing ("got sign-off from Tom" chose no Tom). */
function chosenIn(line: string, name: string): boolean {
  const at = line.toLowerCase().indexOf(name.toLowerCase());
  return at > 0 && CHOSEN.test(line.slice(0, at).toLowerCase());
}

/**
 * The fact a removal describes rather than keys: "we don't need to migrate the socket.io chat widget"
 * drops "widget: the live chat widget … has to be migrated". The clause must share a word with the
 * fact's key and at least two with its line; the fact sharing most wins, and a tie names none.
 */
function describedBy(known: KnownLines, names: ReadonlySet<string>, claim: Claim): Known | null {
  const words = subjectWords(claim.value);
  let best: { entry: Known; shared: number } | null = null;
  let tied = false;
  for (const entry of known.withWords('subject', words)) {
    if (![...subjectWords(entry.key)].some((word) => words.has(word) && !names.has(word))) continue;
    let shared = 0;
    for (const word of subjectWords(entry.text)) if (words.has(word)) shared += 1;
    if (shared < 2 || (best !== null && shared < best.shared)) continue;
    tied = best !== null && shared === best.shared;
    if (!tied || entry.order > (best?.entry.order ?? -1)) best = { entry, shared };
  }
  return best === null || tied ? null : best.entry;
}

/**
 * "Forget the Skoda": the one fact whose line names a thing the removal names by its proper name
 * (a name of the clause that no other fact mentions); null when none or several do.
 */
function onlyNaming(known: KnownLines, claim: Claim): Known | null {
  const [from, to] = [claim.sentence.tokens[claim.span[0]]?.start ?? 0, claim.sentence.tokens[claim.span[1] - 1]?.end ?? 0];
  const named = claim.sentence.specifics.filter((item) => item.type === 'name' && item.start >= from && item.end <= to);
  for (const item of named) {
    // A person only as someone chosen ("forget Jess" of "found a walker, Jess from Paws on the Downs"):
    // "Forget Tom, he's not invited" says nothing of Tom as project lead.
    const person = item.entity === 'person';
    const naming = [...known.values()].filter((entry) => entry.factId !== null && factHolds(entry.text, item) && (!person || chosenIn(entry.text, item.text)));
    if (naming.length === 1) return naming[0] ?? null;
  }
  return null;
}

/** The newest known fact under exactly this key. */
function sameKey(known: KnownLines, key: string): Known | null {
  const normalized = normalizeText(key);
  let best: Known | null = null;
  for (const entry of known.withWords('key', [normalized])) if (best === null || entry.order > best.order) best = entry;
  return best;
}

/** "Scrap the part-ex" of "brenton part-ex: matched the £1,100 part-ex": the one known fact whose key ends with the whole key; null when none or several. */
function onlyKeyEnding(known: KnownLines, key: string): Known | null {
  const normalized = normalizeText(key);
  const found = known.withWords('subject', subjectWords(normalized)).filter((entry) => entry.factId !== null && entry.key.endsWith(` ${normalized}`));
  return found.length === 1 ? (found[0] ?? null) : null;
}

/**
 * "Jonas is out": for a key that is one person's name, the one fact whose key names that person
 * ("colleague jonas meier"); null when none or several do.
 */
function onlyKeyNaming(known: KnownLines, names: ReadonlySet<string>, key: string): Known | null {
  const name = normalizeText(key);
  if (name.includes(' ') || !names.has(name)) return null;
  const naming = [...known.values()].filter((entry) => entry.key.split(' ').includes(name));
  return naming.length === 1 ? (naming[0] ?? null) : null;
}

/** The one known fact the removal `claim` drops, or null; `names` are the people the conversation names. */
export function removalTarget(known: KnownLines, names: ReadonlySet<string>, claim: Claim): Known | null {
  const key = claim.key;
  return (
    (key === null ? null : (sameKey(known, key) ?? onlyKeyNaming(known, names, key))) ??
    describedBy(known, names, claim) ??
    onlyNaming(known, claim) ??
    (key === null ? null : onlyKeyEnding(known, key))
  );
}

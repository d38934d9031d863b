/**
 * The lines of the base-truth document in a package. A fact kept beside a newer fact that may replace
 * it (`Fact.mayReplace`: its manager could not tell whether the two are about the same subject) is never
 * shown alone as if it still held: it is shown inside the newer fact's line, `- cutover: April 12
 * [may replace turn 3: "deadline: March 15"] (turn 14, 2 Apr 2026)`. A pinned exception is never folded
 * away: it keeps its own line and names the fact that may supersede it.
 */
import type { Fact } from '../core/types.js';
import type { FactDoubts } from '../core/fact-doubts.js';
import { quoted } from '../core/text.js';
import { lineBreakTokens } from '../providers/tokenizer/separator-tokens.js';
import type { Tokenizer } from '../providers/tokenizer/tokenizer.js';
import { factLine } from './render.js';
import type { Line } from './turn-options.js';

/** A fact's text with the older lines it may replace, folded in (theirs too, a chain at most a few deep). */
function textWithDoubts(fact: Fact, doubts: FactDoubts, seen: ReadonlySet<string>): string {
  const older = (doubts.inside.get(fact.id) ?? []).filter((entry) => !seen.has(entry.id));
  if (older.length === 0) return fact.text;
  const next = new Set([...seen, fact.id]);
  const parts = older.map((entry) => `turn ${entry.updatedTurn}: ${quoted(textWithDoubts(entry, doubts, next), 400)}`);
  return `${fact.text} [may replace ${parts.join('; ')}]`;
}

/** The sources of a fact's line: its own and those of the lines folded into it. */
function sourcesWithDoubts(fact: Fact, doubts: FactDoubts, seen: ReadonlySet<string>): string[] {
  const older = (doubts.inside.get(fact.id) ?? []).filter((entry) => !seen.has(entry.id));
  const next = new Set([...seen, fact.id]);
  return [...new Set([...fact.sourceMessageIds, ...older.flatMap((entry) => sourcesWithDoubts(entry, doubts, next))])];
}

/** A fact's line, with the time its turn was said (when known) for its `(turn N, date)` mark. */
export function factItem(fact: Fact, tokenizer: Tokenizer, times: ReadonlyMap<number, string>, doubts: FactDoubts): Line {
  const newer = fact.pinned ? doubts.supersededBy.get(fact.id) : undefined;
  const text = newer === undefined ? textWithDoubts(fact, doubts, new Set()) : `${fact.text} [possibly superseded at turn ${newer.createdTurn}: ${quoted(newer.text, 400)}]`;
  const fields = { text: `- ${text}`, turn: fact.updatedTurn, date: times.get(fact.updatedTurn) ?? null };
  const rendered = factLine(fields);
  const tokens = tokenizer.count(rendered);
  return {
    ...fields,
    tokens,
    sourceMessageIds: sourcesWithDoubts(fact, doubts, new Set()),
    kind: 'fact',
    tier: null,
    factKind: fact.kind,
    role: null,
    cost: tokens + lineBreakTokens(rendered, tokenizer.count),
  };
}

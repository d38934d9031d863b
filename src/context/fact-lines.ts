/**
 * The lines of the base-truth document in a package. A fact kept beside a newer fact that may replace
 * it (`Fact.mayReplace`: its manager could not tell whether the two are about the same subject) is never
 * shown alone as if it still held: it is shown inside the newer fact's line, `- cutover: April 12
 * [may replace turn 3: "deadline: March 15"] (turn 14)`. A pinned exception is never folded
 * away: it keeps its own line and names the fact that may supersede it.
 */
import type { Fact } from '../core/types.js';
import type { FactDoubts } from '../core/fact-doubts.js';
import { countWords, quoted } from '../core/text.js';
import { lineBreakTokens } from '../providers/tokenizer/separator-tokens.js';
import type { Tokenizer } from '../providers/tokenizer/tokenizer.js';
import { factLine } from './render.js';
import type { Line } from './turn-options.js';

/**
 * A fact's text with the older lines it may replace folded in (theirs too, a chain at most a few deep),
 * and the sources of all of them.
 */
function withDoubts(fact: Fact, doubts: FactDoubts, seen: ReadonlySet<string>): { text: string; sources: string[] } {
  const older = (doubts.inside.get(fact.id) ?? []).filter((entry) => !seen.has(entry.id));
  if (older.length === 0) return { text: fact.text, sources: fact.sourceMessageIds };
  const next = new Set([...seen, fact.id]);
  const folded = older.map((entry) => ({ entry, line: withDoubts(entry, doubts, next) }));
  const parts = folded.map(({ entry, line }) => `turn ${entry.updatedTurn}: ${quoted(line.text, 400)}`);
  return {
    text: `${fact.text} [may replace ${parts.join('; ')}]`,
    sources: [...new Set([...fact.sourceMessageIds, ...folded.flatMap(({ line }) => line.sources)])],
  };
}

/** The messages a fact's line cites: its own and those of the older facts folded into it. */
export function factLineSources(fact: Fact, doubts: FactDoubts): string[] {
  return withDoubts(fact, doubts, new Set()).sources;
}

/**
 * Fewer tokens than the fact's line can have, found without counting: the encodings never put two runs of
 * non-space characters in one token, and the line holds the fact's text after its "-".
 */
export function factLineFloor(fact: Fact): number {
  return 1 + countWords(fact.text);
}

/** A fact's line, with the time its turn was said (when known) for its `(turn N, date)` mark. */
export function factItem(fact: Fact, tokenizer: Tokenizer, times: ReadonlyMap<number, string>, doubts: FactDoubts): Line {
  const newer = fact.pinned ? doubts.supersededBy.get(fact.id) : undefined;
  const line = withDoubts(fact, doubts, new Set());
  const text = newer === undefined ? line.text : `${fact.text} [possibly superseded at turn ${newer.createdTurn}: ${quoted(newer.text, 400)}]`;
  const fields = { text: `- ${text}`, turn: fact.updatedTurn, date: times.get(fact.updatedTurn) ?? null };
  // (A pinned line stands alone with its date; a listed one sits under its day's heading, paid for by the assembly.)
  const rendered = factLine(fields, fact.pinned);
  const tokens = tokenizer.count(rendered);
  return {
    ...fields,
    tokens,
    sourceMessageIds: line.sources,
    kind: 'fact',
    tier: null,
    factKind: fact.kind,
    role: null,
    cost: tokens + lineBreakTokens(rendered, tokenizer.count),
  };
}

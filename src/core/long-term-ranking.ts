/**
 * How recalled long-term memories are scored against a query, and the one-line reason each is given.
 * A memory found by its words scores the share of the query's content words it holds (singular forms
 * compared); one found by a tag the query names scores by the tag's words; one reached over an edge
 * scores half its neighbour's. Pure; no I/O.
 */
import { singularWord, type EdgeType, type LongTermMemory } from './long-term-memory.js';
import { words } from './text.js';
import { queryTerms } from './query-terms.js';

/** The path a memory was found by. */
export type RecallPath = 'words' | 'tag' | 'link' | 'time';

export interface ScoredMemory {
  memory: LongTermMemory;
  /** 0–1: the share of the query it answers (a link: half its neighbour's; time alone: 0.5). */
  score: number;
  path: RecallPath;
  /** One line saying why it is relevant. */
  reason: string;
}

/**
 * The least score a memory found by its words needs to be relevant by share alone: a quarter of the query.
 * Holding two of its words, or one it writes as specific (a name, a day, a number), is enough too.
 */
export const RELEVANT_SCORE = 0.25;

/** The query's content words, singular, each once. */
export function recallTerms(query: string): string[] {
  return [...new Set(queryTerms(query, { limit: 32 }).map(singularWord))];
}

/** The query's specific words, singular: written with a capital inside a sentence, or holding a digit ("Rachel", "Saturday", "V60"). */
export function specificTerms(query: string): Set<string> {
  const specific = new Set<string>();
  for (const match of query.matchAll(/[\p{L}\p{N}]+/gu)) {
    const sentenceStart = match.index === 0 || /[.!?]\s*$/u.test(query.slice(Math.max(0, match.index - 3), match.index));
    if (/\p{N}/u.test(match[0]) || (!sentenceStart && /^\p{Lu}/u.test(match[0]))) specific.add(singularWord(match[0].toLowerCase()));
  }
  return specific;
}

/** Whether a memory found by its words bears on the query (see `RELEVANT_SCORE`). */
export function isRelevant(scored: ScoredMemory & { shared: readonly string[] }, specific: ReadonlySet<string>): boolean {
  return scored.score >= RELEVANT_SCORE || scored.shared.length >= 2 || scored.shared.some((term) => specific.has(term));
}

/** The words of a memory (value, name, subject, and the tags given), singular. */
function memoryWords(memory: LongTermMemory, tags: readonly string[]): Set<string> {
  return new Set(words(`${memory.value} ${memory.name ?? ''} ${memory.subject ?? ''} ${tags.join(' ')}`).map(singularWord));
}

/** A memory found by its words (its tags' words too, when given): the share of the query terms it holds, and which. */
export function scoreByWords(memory: LongTermMemory, terms: readonly string[], tags: readonly string[] = []): ScoredMemory & { shared: string[] } {
  const words = memoryWords(memory, tags);
  // A word that begins another of at least four letters counts ("hour" for "hourly").
  const shared = terms.filter((term) => words.has(term) || [...words].some((word) => Math.min(word.length, term.length) >= 4 && (word.startsWith(term) || term.startsWith(word))));
  const score = terms.length === 0 ? 0 : shared.length / terms.length;
  const quoted = shared.slice(0, 4).map((term) => `"${term}"`).join(', ');
  return { memory, score, path: 'words', reason: shared.length === 0 ? 'no word in common with the query' : `shares ${quoted} with the query`, shared };
}

/** Tags whose words the query names (a level's words all among the query terms): `family/birthdays` for "birthday". */
export function namedTags(tags: readonly string[], terms: readonly string[]): string[] {
  const wanted = new Set(terms);
  return tags.filter((tag) =>
    tag.split('/').some((level) => {
      const words = level.split('-').map(singularWord);
      return words.length > 0 && words.every((word) => wanted.has(word));
    }),
  );
}

/** A memory reached over an edge from one already recalled. */
export function scoreByLink(memory: LongTermMemory, from: ScoredMemory, type: EdgeType, outgoing: boolean): ScoredMemory {
  const relation = type === 'contradicts' ? `contradicts ${from.memory.key}: check which holds` : outgoing ? `${from.memory.key} ${type} it` : `it ${type} ${from.memory.key}`;
  return { memory, score: from.score / 2, path: 'link', reason: `linked: ${relation}` };
}

/** Best first: by score, then the most recently modified, then by key. */
export function byRelevance(left: ScoredMemory, right: ScoredMemory): number {
  return right.score - left.score || right.memory.modifiedAt.localeCompare(left.memory.modifiedAt) || left.memory.key.localeCompare(right.memory.key);
}

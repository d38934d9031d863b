/**
 * The two baselines of ER@B, over raw turns (a turn is one LoCoMo dialogue message). A baseline package
 * renders its turns as the engine renders its window: one chat message per turn, `Speaker: text`, in
 * conversation order, counted with the same tokenizer and the same chat-format overhead, so its budget
 * means what the engine's does.
 *
 * - recency: the last turns that fit (a contiguous tail);
 * - BM25-greedy: turns ranked by BM25 against the question (k1 1.2, b 0.75), each added when it still
 *   fits, until no ranked turn is left. Turns that share no term with the question are never added.
 */
import { queryTerms } from '../../core/query-terms.js';
import { words } from '../../core/text.js';
import type { ChatMessage, Role } from '../../core/types.js';
import { TOKENS_PER_MESSAGE, TOKENS_PER_REPLY, type Tokenizer } from '../../providers/tokenizer/tokenizer.js';

/** One raw turn, ready to pack. */
export interface BaselineTurn {
  /** Message id (or any id the caller maps back to evidence). */
  id: string;
  role: Role;
  /** The rendered text: `Speaker: text`. */
  content: string;
  /** Tokens this turn adds to a package: the message overhead, its role and its content. */
  cost: number;
}

/** Prepare turns for packing: render `Speaker: text` and count each once. */
export function baselineTurns(
  messages: ReadonlyArray<{ id: string; role: Role; speaker: string | null; content: string }>,
  tokenizer: Tokenizer,
): BaselineTurn[] {
  const roleTokens = { user: tokenizer.count('user'), assistant: tokenizer.count('assistant'), tool: tokenizer.count('tool') };
  return messages.map((message) => {
    const content = message.speaker === null ? message.content : `${message.speaker}: ${message.content}`;
    return { id: message.id, role: message.role, content, cost: TOKENS_PER_MESSAGE + roleTokens[message.role] + tokenizer.count(content) };
  });
}

/** Rendered tokens of a package of these turns (0 for none), as `Tokenizer.countMessages` counts them. */
export function packageTokens(turns: readonly BaselineTurn[]): number {
  return turns.length === 0 ? 0 : TOKENS_PER_REPLY + turns.reduce((sum, turn) => sum + turn.cost, 0);
}

/** A baseline package: the chosen turns in conversation order. */
export interface BaselinePackage {
  turns: BaselineTurn[];
  tokens: number;
  render(): ChatMessage[];
}

function packageOf(all: readonly BaselineTurn[], chosen: ReadonlySet<number>): BaselinePackage {
  const turns = all.filter((_, index) => chosen.has(index));
  return { turns, tokens: packageTokens(turns), render: () => turns.map((turn) => ({ role: turn.role, content: turn.content })) };
}

/** Recency: the last turns that fit the budget, stopping at the first that does not. */
export function recencyPackage(turns: readonly BaselineTurn[], budget: number): BaselinePackage {
  const chosen = new Set<number>();
  let used = TOKENS_PER_REPLY;
  for (let index = turns.length - 1; index >= 0; index -= 1) {
    const cost = turns[index]?.cost ?? 0;
    if (used + cost > budget) break;
    used += cost;
    chosen.add(index);
  }
  return packageOf(turns, chosen);
}

/** A BM25 index over a fixed list of documents. */
export interface Bm25Index {
  /** The BM25 score of every document for the query's terms (the query-term extraction of the engine's recall). */
  scores(query: string): number[];
}

/** Build a BM25 index (k1 1.2, b 0.75; idf = ln(1 + (N − df + 0.5) / (df + 0.5))) over normalised words. */
export function createBm25Index(documents: readonly string[], options: { k1?: number; b?: number } = {}): Bm25Index {
  const k1 = options.k1 ?? 1.2;
  const b = options.b ?? 0.75;
  const frequencies = documents.map((document) => {
    const counts = new Map<string, number>();
    for (const word of words(document)) counts.set(word, (counts.get(word) ?? 0) + 1);
    return counts;
  });
  const lengths = documents.map((document) => words(document).length);
  const averageLength = lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, documents.length) || 1;
  const documentFrequency = new Map<string, number>();
  for (const counts of frequencies) for (const term of counts.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const total = documents.length;
  return {
    scores: (query) => {
      const terms = queryTerms(query);
      return frequencies.map((counts, index) => {
        const norm = k1 * (1 - b + (b * (lengths[index] ?? 0)) / averageLength);
        let score = 0;
        for (const term of terms) {
          const tf = counts.get(term) ?? 0;
          if (tf === 0) continue;
          const df = documentFrequency.get(term) ?? 0;
          score += Math.log(1 + (total - df + 0.5) / (df + 0.5)) * ((tf * (k1 + 1)) / (tf + norm));
        }
        return score;
      });
    },
  };
}

/**
 * BM25-greedy: turns with a positive score, best first (ties: earlier turn first), each added when it
 * still fits the budget.
 */
export function bm25GreedyPackage(turns: readonly BaselineTurn[], index: Bm25Index, query: string, budget: number): BaselinePackage {
  const scores = index.scores(query);
  const ranked = scores
    .map((score, position) => ({ score, position }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.position - b.position);
  const chosen = new Set<number>();
  let used = TOKENS_PER_REPLY;
  for (const { position } of ranked) {
    const cost = turns[position]?.cost ?? 0;
    if (used + cost > budget) continue;
    used += cost;
    chosen.add(position);
  }
  return packageOf(turns, chosen);
}

import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/core/types.js';
import { baselineTurns, bm25GreedyPackage, createBm25Index, packageTokens, recencyPackage } from '../../../src/eval/locomo/baselines.js';
import { createGptTokenizer } from '../../../src/providers/tokenizer/gpt-tokenizer.js';
import type { Tokenizer } from '../../../src/providers/tokenizer/tokenizer.js';

/** One token per word, so every cost below can be checked by hand. */
const wordTokenizer: Tokenizer = {
  name: 'o200k_base',
  count: (text) => (text.trim() === '' ? 0 : text.trim().split(/\s+/u).length),
  countMessages: (messages: readonly ChatMessage[]) =>
    messages.length === 0 ? 0 : 3 + messages.reduce((sum, message) => sum + 3 + 1 + wordTokenizer.count(message.content), 0),
  truncate: (text) => text,
};

/** A five-turn toy conversation (a turn is one dialogue message). */
const TOY = [
  { id: 't1', role: 'user', speaker: 'Ann', content: 'I adopted a cat named Miso.' }, // 7 words with "Ann:" → cost 3 + 1 + 7 = 11
  { id: 't2', role: 'assistant', speaker: 'Bob', content: 'What colour is Miso?' }, // 5 words → 9
  { id: 't3', role: 'user', speaker: 'Ann', content: 'She is grey and loves our sunny garden.' }, // 9 words → 13
  { id: 't4', role: 'assistant', speaker: 'Bob', content: 'My garden grows tomatoes.' }, // 5 words → 9
  { id: 't5', role: 'user', speaker: 'Ann', content: 'Tomatoes suit a summer salad.' }, // 6 words → 10
] as const;

describe('baselineTurns', () => {
  it('renders `Speaker: text` and counts each turn with the chat overhead', () => {
    const turns = baselineTurns(TOY, wordTokenizer);
    expect(turns.map((turn) => turn.cost)).toEqual([11, 9, 13, 9, 10]);
    expect(turns[1]).toMatchObject({ id: 't2', role: 'assistant', content: 'Bob: What colour is Miso?' });
  });

  it('counts packages exactly as the tokenizer counts rendered messages', () => {
    const tokenizer = createGptTokenizer();
    const turns = baselineTurns(TOY, tokenizer);
    for (const budget of [0, 10, 30, 45, 1000]) {
      const pkg = recencyPackage(turns, budget);
      expect(pkg.tokens).toBe(tokenizer.countMessages(pkg.render()));
      expect(pkg.tokens).toBeLessThanOrEqual(budget);
      const ranked = bm25GreedyPackage(turns, createBm25Index(turns.map((turn) => turn.content)), 'Miso garden', budget);
      expect(ranked.tokens).toBe(tokenizer.countMessages(ranked.render()));
      expect(ranked.tokens).toBeLessThanOrEqual(budget);
    }
    expect(packageTokens([])).toBe(0);
  });
});

describe('recency', () => {
  const turns = baselineTurns(TOY, wordTokenizer);
  const ids = (budget: number): string[] => recencyPackage(turns, budget).turns.map((turn) => turn.id);

  it('keeps the last turns that fit, in conversation order', () => {
    expect(ids(3 + 10 + 9)).toEqual(['t4', 't5']);
    expect(ids(3 + 10 + 9 + 13)).toEqual(['t3', 't4', 't5']);
    // t3 does not fit the 12 tokens left: recency stops there even though t2 (9) and t1 (11) would.
    expect(ids(3 + 10 + 9 + 12)).toEqual(['t4', 't5']);
    expect(ids(1000)).toEqual(['t1', 't2', 't3', 't4', 't5']);
    expect(ids(12)).toEqual([]);
  });
});

describe('BM25', () => {
  it('scores with k1 1.2, b 0.75 and idf ln(1 + (N − df + 0.5) / (df + 0.5))', () => {
    const index = createBm25Index(['apple banana', 'banana cherry cherry']);
    const [first, second] = index.scores('the cherry?');
    expect(first).toBe(0);
    // N 2, df 1, avgdl 2.5; document 2: tf 2, dl 3.
    expect(second).toBeCloseTo(Math.log(1 + 1.5 / 1.5) * ((2 * 2.2) / (2 + 1.2 * (0.25 + (0.75 * 3) / 2.5))), 10);
  });
});

describe('BM25-greedy', () => {
  const turns = baselineTurns(TOY, wordTokenizer);
  const index = createBm25Index(turns.map((turn) => turn.content));
  const ids = (query: string, budget: number): string[] => bm25GreedyPackage(turns, index, query, budget).turns.map((turn) => turn.id);

  it('ranks turns by BM25 against the question', () => {
    const scores = index.scores('What colour is Miso in the garden?');
    // Query terms: colour, miso, garden. t2 has colour and miso; t1 miso; t3 and t4 garden (t4 is shorter); t5 nothing.
    const order = scores.map((score, position) => ({ score, id: turns[position]?.id })).sort((a, b) => b.score - a.score);
    expect(order.map((entry) => entry.id)).toEqual(['t2', 't4', 't1', 't3', 't5']);
    expect(scores[4]).toBe(0);
  });

  it('adds ranked turns while they fit, skipping those that do not, never adding unmatched turns', () => {
    const query = 'What colour is Miso in the garden?';
    expect(ids(query, 1000)).toEqual(['t1', 't2', 't3', 't4']);
    expect(ids(query, 3 + 9)).toEqual(['t2']);
    expect(ids(query, 3 + 9 + 9)).toEqual(['t2', 't4']);
    // After t2 and t4 there are 11 left: t1 (11) fits, then t3 (13) does not.
    expect(ids(query, 3 + 9 + 9 + 11)).toEqual(['t1', 't2', 't4']);
    // 10 left after t2 and t4: t1 is skipped, t3 is skipped; nothing else matches.
    expect(ids(query, 3 + 9 + 9 + 10)).toEqual(['t2', 't4']);
    expect(ids('Who plays chess?', 1000)).toEqual([]);
  });
});

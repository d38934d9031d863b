import { describe, expect, it } from 'vitest';
import type { ParsedTurnOutput } from '../../../src/managers/model/parse-turn-output.js';
import { splitText } from '../../../src/managers/model/chunk-text.js';
import { mergePartialResults } from '../../../src/managers/model/merge-partial-results.js';
import { MESSAGE_OVERHEAD_TOKENS, planCalls } from '../../../src/managers/model/plan-calls.js';
import { TURN_LIMITS } from '../../../src/managers/model/turn-limits.js';
import { createGptTokenizer } from '../../../src/providers/tokenizer/gpt-tokenizer.js';

const tokenizer = createGptTokenizer();

const PARAGRAPHS = [
  'The service must never drop a message. It retries for an hour.',
  'Deploys happen on Tuesdays. Rollbacks take five minutes! Is that fast enough? It is.',
  'The database is PostgreSQL 16 with nightly backups.',
].join('\n\n');

describe('splitText', () => {
  it('keeps a text that fits whole', () => {
    expect(splitText(PARAGRAPHS, 1000, tokenizer)).toEqual([PARAGRAPHS]);
  });

  it('splits on paragraph boundaries first; the chunks joined give the text back', () => {
    const chunks = splitText(PARAGRAPHS, 25, tokenizer);
    expect(chunks.join('')).toBe(PARAGRAPHS);
    expect(chunks.map((chunk) => chunk.trim())).toEqual(PARAGRAPHS.split('\n\n'));
  });

  it('then on sentences, and cuts inside words only as a last resort; every chunk fits', () => {
    const chunks = splitText(PARAGRAPHS, 8, tokenizer);
    expect(chunks.join('')).toBe(PARAGRAPHS);
    expect(chunks.length).toBeGreaterThan(4);
    for (const chunk of chunks) expect(tokenizer.count(chunk)).toBeLessThanOrEqual(8);
    expect(chunks).toContain('Rollbacks take five minutes! ');

    const word = 'x'.repeat(400);
    const cut = splitText(word, 10, tokenizer);
    expect(cut.join('')).toBe(word);
    for (const chunk of cut) expect(tokenizer.count(chunk)).toBeLessThanOrEqual(10);
  });
});

describe('planCalls', () => {
  const messages = [
    { id: 'u', role: 'user' as const, speaker: null, content: 'Short question about the deploy.', sentAt: null },
    { id: 'a', role: 'assistant' as const, speaker: null, content: PARAGRAPHS, sentAt: null },
  ];

  it('puts everything in one call when it fits', () => {
    const calls = planCalls(messages, 1000, tokenizer);
    expect(calls).toEqual([messages.map((message) => ({ id: message.id, role: message.role, speaker: null, sentAt: null, content: message.content }))]);
  });

  it('splits a message that does not fit into numbered parts, packed with short messages, never two parts in one call', () => {
    const calls = planCalls(messages, MESSAGE_OVERHEAD_TOKENS + 30, tokenizer);
    expect(calls.length).toBeGreaterThan(1);
    const parts = calls.flat().filter((message) => message.id === 'a');
    expect(parts.map((part) => part.part)).toEqual(parts.map((_, index) => ({ index: index + 1, count: parts.length })));
    expect(parts.map((part) => part.content).join(' ').replace(/\s+/gu, ' ')).toBe(PARAGRAPHS.replace(/\s+/gu, ' '));
    for (const call of calls) expect(new Set(call.map((message) => message.id)).size).toBe(call.length);
    expect(calls[0]?.[0]).toMatchObject({ id: 'u', content: 'Short question about the deploy.' });
  });
});

describe('mergePartialResults', () => {
  const part = (fields: Partial<ParsedTurnOutput>): ParsedTurnOutput => ({ userSummary: '', assistantSummary: '', messages: [], diff: { add: [], update: [], remove: [] }, ...fields });

  it('concatenates tiers and summaries in order and unites diffs, the later part winning per key', () => {
    const merged = mergePartialResults(
      [
        part({
          userSummary: 'Asked about deploys.',
          assistantSummary: 'Explained retries.',
          messages: [{ messageId: 'u', tier1: 'topic = deploys', tier2: 'Asked about deploys.' }, { messageId: 'a', tier1: 'retry = 1 hour', tier2: 'Retries for an hour.' }],
          diff: {
            add: [{ key: 'deploy day', text: 'deploy day: Monday', kind: 'fact', sourceMessageIds: ['a'] }, { text: 'retry window: one hour', kind: 'fact', sourceMessageIds: ['a'] }],
            update: [],
            remove: [{ key: 'database', reason: 'replaced', sourceMessageIds: ['a'] }],
          },
        }),
        part({
          assistantSummary: 'Named the database.',
          messages: [{ messageId: 'a', tier1: 'database = PostgreSQL 16', tier2: 'Uses PostgreSQL 16.' }],
          diff: {
            add: [{ key: 'Deploy Day', text: 'deploy day: Tuesday', kind: 'fact', sourceMessageIds: ['a'] }],
            update: [{ key: 'database', text: 'database: PostgreSQL 16', kind: 'fact', sourceMessageIds: ['a'], reason: 'we run PostgreSQL 16' }],
            remove: [],
          },
        }),
      ],
      [{ id: 'u', words: 5 }, { id: 'a', words: 30 }],
      TURN_LIMITS,
    );
    expect(merged.userSummary).toBe('Asked about deploys.');
    expect(merged.assistantSummary).toBe('Explained retries. Named the database.');
    expect(merged.messages).toEqual([
      { messageId: 'u', tier1: 'topic = deploys', tier2: 'Asked about deploys.' },
      { messageId: 'a', tier1: 'retry = 1 hour; database = PostgreSQL 16', tier2: 'Retries for an hour. Uses PostgreSQL 16.' },
    ]);
    expect(merged.diff).toEqual({
      add: [{ text: 'retry window: one hour', kind: 'fact', sourceMessageIds: ['a'] }, { key: 'Deploy Day', text: 'deploy day: Tuesday', kind: 'fact', sourceMessageIds: ['a'] }],
      update: [{ key: 'database', text: 'database: PostgreSQL 16', kind: 'fact', sourceMessageIds: ['a'], reason: 'we run PostgreSQL 16' }],
      remove: [],
    });
  });

  it('re-trims the joined tiers and summaries to the whole message limits', () => {
    const many = Array.from({ length: 20 }, (_, index) => `w${index}`).join(' ');
    const parts = [1, 2, 3].map(() => part({ userSummary: many, messages: [{ messageId: 'u', tier1: many, tier2: many }] }));
    const merged = mergePartialResults(parts, [{ id: 'u', words: 100 }], TURN_LIMITS);
    expect(merged.userSummary.split(' ')).toHaveLength(25);
    expect(merged.messages[0]?.tier1.split(' ')).toHaveLength(20);
    expect(merged.messages[0]?.tier2.split(' ')).toHaveLength(35);
  });
});

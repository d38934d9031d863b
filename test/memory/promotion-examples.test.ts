/**
 * Promotion on the key-fact conversations in `examples/conversations`: each imported into its own memory,
 * no key fact is held by two current long-term memories (one attribute, one memory), and every version
 * after a memory's first says where in which session it came from.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchesAlternative } from '../../src/eval/match.js';
import { createMemory } from '../../src/memory/create-memory.js';

const FOLDER = join(import.meta.dirname, '../../examples/conversations');
const FILES = readdirSync(FOLDER).filter((file) => file.endsWith('.json')).sort();

interface KeyFact {
  id: string;
  mustInclude: string[][];
}

describe('promotion on the example conversations', () => {
  it.each(FILES)('%s: one memory at most per key fact, every later version with its session and turn', async (file) => {
    const text = readFileSync(join(FOLDER, file), 'utf8');
    const keyFacts = (JSON.parse(text) as { keyFacts: KeyFact[] }).keyFacts;
    const memory = createMemory({ path: ':memory:', env: {}, durability: 'normal' });
    try {
      const imported = await memory.sessions.import({ data: text, source: file });
      const memories = await memory.memories.list({ limit: 500 });
      expect(memories.length, 'a conversation full of rules and preferences promotes some').toBeGreaterThan(0);
      for (const fact of keyFacts) {
        const holders = memories.filter((held) => fact.mustInclude.every((group) => group.some((alternative) => matchesAlternative(held.value, alternative))));
        expect(holders.map((held) => held.value), `key fact ${fact.id}`).toHaveLength(Math.min(1, holders.length));
      }
      for (const held of memories) {
        const versions = await memory.memories.history(held.key);
        expect(versions[0]?.reason).toMatch(new RegExp(`^promoted from session ${imported.sessionId}, turn \\d+: `, 'u'));
        for (const version of versions.slice(1)) expect(version.reason).toMatch(new RegExp(`^(?:corrected|restated|taken back) in session ${imported.sessionId}, turn \\d+`, 'u'));
        expect(held.sources.map((source) => source.sessionId)).toEqual([imported.sessionId]);
      }
    } finally {
      await memory.close();
    }
  });
});

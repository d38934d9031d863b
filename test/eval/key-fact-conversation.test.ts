import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isStrataError, type StrataError } from '../../src/core/errors.js';
import { conversationFiles, loadKeyFactConversation, loadKeyFactConversations, parseKeyFactConversation } from '../../src/eval/key-fact-conversation.js';
import { temporaryFolder } from '../support/memory-fixtures.js';

function keyFactFile(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'tiny',
    description: 'a tiny conversation',
    budget: 500,
    messages: [
      { role: 'user', content: 'Customer data must be stored in China.' },
      { role: 'assistant', content: 'Noted: data stays in China.' },
    ],
    keyFacts: [{ id: 'residency', tier: 1, text: 'Data in China', mustInclude: [['china'], ['data', 'stored']] }],
    ...overrides,
  };
}

function failure(work: () => unknown): StrataError {
  try {
    work();
  } catch (error) {
    if (isStrataError(error)) return error;
    throw error;
  }
  throw new Error('expected a StrataError');
}

let folder: { path: string; cleanup: () => void };
beforeEach(() => {
  folder = temporaryFolder();
});
afterEach(() => folder.cleanup());

describe('key-fact conversation format', () => {
  it('parses a valid conversation (description optional, unknown fields ignored)', () => {
    const { description: _description, ...rest } = keyFactFile({ extra: true });
    const conversation = parseKeyFactConversation(rest, 'tiny.json');
    expect(conversation).toMatchObject({ id: 'tiny', description: '', budget: 500 });
    expect(conversation.keyFacts[0]?.mustInclude).toEqual([['china'], ['data', 'stored']]);
  });

  it('names the file and the path of a bad field', () => {
    const tier = failure(() => parseKeyFactConversation(keyFactFile({ keyFacts: [{ id: 'a', tier: 4, text: '', mustInclude: [['x']] }] }), 'bad.json'));
    expect(tier.code).toBe('INVALID_INPUT');
    expect(tier.message).toMatch(/^bad\.json is not a valid key-fact conversation: keyFacts\[0\]\.tier \(fact "a"\): tier must be 1 .*, 2 .* or 3/u);
    expect(tier.details).toMatchObject({ file: 'bad.json', path: 'keyFacts[0].tier' });

    const regex = failure(() =>
      parseKeyFactConversation(keyFactFile({ keyFacts: [{ id: 'a', tier: 1, text: '', mustInclude: [['x'], ['ok', 're:(oops']] }] }), 'bad.json'),
    );
    expect(regex.message).toContain('keyFacts[0].mustInclude[1][1] (fact "a"): "re:(oops" is not a valid regular expression');

    const role = failure(() => parseKeyFactConversation(keyFactFile({ messages: [{ role: 'robot', content: 'hi' }] }), 'bad.json'));
    expect(role.message).toContain('messages[0].role: role must be "user", "assistant" or "system"');

    const budget = failure(() => parseKeyFactConversation(keyFactFile({ budget: 12.5 }), 'bad.json'));
    expect(budget.message).toContain('budget: budget must be a whole number');

    const duplicate = failure(() =>
      parseKeyFactConversation(
        keyFactFile({ keyFacts: [{ id: 'a', tier: 1, text: '', mustInclude: [['x']] }, { id: 'a', tier: 2, text: '', mustInclude: [['y']] }] }),
        'bad.json',
      ),
    );
    expect(duplicate.message).toContain('keyFacts[1].id (fact "a"): key fact id "a" appears twice');

    const empty = failure(() => parseKeyFactConversation(keyFactFile({ keyFacts: [{ id: 'a', tier: 1, text: '', mustInclude: [] }] }), 'bad.json'));
    expect(empty.message).toContain('keyFacts[0].mustInclude (fact "a"): mustInclude needs at least one group');

    const missing = failure(() => parseKeyFactConversation({ id: 'x' }, 'bad.json'));
    expect(missing.message).toMatch(/budget: .*; messages: .*; keyFacts: /u);
  });

  it('reads staleFacts and message timestamps', () => {
    const conversation = parseKeyFactConversation(
      keyFactFile({
        messages: [
          { role: 'user', content: 'Data must be stored in Singapore. No wait, China.', timestamp: '2026-03-02T18:40:00Z' },
          { role: 'assistant', content: 'Noted: data stays in China.' },
        ],
        staleFacts: [{ id: 'singapore', supersededBy: 'residency', text: 'Data in Singapore', mustInclude: [['singapore']] }],
      }),
      'tiny.json',
    );
    expect(conversation.messages[0]?.timestamp).toBe('2026-03-02T18:40:00Z');
    expect(conversation.messages[1]?.timestamp).toBeUndefined();
    expect(conversation.staleFacts).toEqual([{ id: 'singapore', supersededBy: 'residency', text: 'Data in Singapore', mustInclude: [['singapore']] }]);
    // A file without staleFacts has none.
    expect(parseKeyFactConversation(keyFactFile(), 'tiny.json').staleFacts).toEqual([]);
  });

  it('refuses a stale fact naming no key fact, an empty mustInclude or a bad pattern, naming the file, the fact and the fix', () => {
    const unknown = failure(() =>
      parseKeyFactConversation(keyFactFile({ staleFacts: [{ id: 'old-region', supersededBy: 'regoin', text: '', mustInclude: [['x']] }] }), 'stale.json'),
    );
    expect(unknown.code).toBe('INVALID_INPUT');
    expect(unknown.message).toContain(
      'stale.json is not a valid key-fact conversation: staleFacts[0].supersededBy (fact "old-region"): "regoin" names no key fact; use the id of the key fact that states the current truth, or null',
    );
    expect(unknown.details).toMatchObject({ file: 'stale.json', path: 'staleFacts[0].supersededBy' });

    const empty = failure(() => parseKeyFactConversation(keyFactFile({ staleFacts: [{ id: 'old', supersededBy: null, text: '', mustInclude: [] }] }), 'stale.json'));
    expect(empty.message).toContain('staleFacts[0].mustInclude (fact "old"): mustInclude needs at least one group, e.g. [["budget"], ["45 000", "45k"]]');

    const emptyGroup = failure(() => parseKeyFactConversation(keyFactFile({ staleFacts: [{ id: 'old', supersededBy: null, text: '', mustInclude: [[]] }] }), 'stale.json'));
    expect(emptyGroup.message).toContain('staleFacts[0].mustInclude[0] (fact "old"): a group needs at least one alternative');

    const pattern = failure(() =>
      parseKeyFactConversation(keyFactFile({ staleFacts: [{ id: 'old', supersededBy: null, text: '', mustInclude: [['re:[a-']] }] }), 'stale.json'),
    );
    expect(pattern.message).toContain('staleFacts[0].mustInclude[0][0] (fact "old"): "re:[a-" is not a valid regular expression');

    const twice = failure(() =>
      parseKeyFactConversation(
        keyFactFile({ staleFacts: [{ id: 'old', supersededBy: null, text: '', mustInclude: [['x']] }, { id: 'old', supersededBy: null, text: '', mustInclude: [['y']] }] }),
        'stale.json',
      ),
    );
    expect(twice.message).toContain('staleFacts[1].id (fact "old"): stale fact id "old" appears twice');

    const time = failure(() => parseKeyFactConversation(keyFactFile({ messages: [{ role: 'user', content: 'hi', timestamp: 'last Tuesday' }] }), 'stale.json'));
    expect(time.message).toContain('messages[0].timestamp: timestamp is not a valid time');
  });

  it('reports unreadable files and bad JSON with the file name', () => {
    expect(failure(() => loadKeyFactConversation('nope.json', folder.path)).message).toBe('Cannot read nope.json: no such file.');
    writeFileSync(join(folder.path, 'broken.json'), '{"id": ', 'utf8');
    expect(failure(() => loadKeyFactConversation('broken.json', folder.path)).message).toMatch(/^broken\.json is not valid JSON: /u);
  });

  it('takes every *.json of a folder, sorted, and each file once', () => {
    const dir = join(folder.path, 'set');
    mkdirSync(dir);
    for (const name of ['b.json', 'a.json', 'C.JSON', 'notes.txt']) writeFileSync(join(dir, name), JSON.stringify(keyFactFile({ id: name })), 'utf8');
    mkdirSync(join(dir, 'nested.json'));
    expect(conversationFiles(['set', 'set/a.json'], folder.path)).toEqual([join('set', 'C.JSON'), join('set', 'a.json'), join('set', 'b.json')]);
    const loaded = loadKeyFactConversations(['set'], folder.path);
    expect(loaded.map((entry) => entry.conversation.id)).toEqual(['C.JSON', 'a.json', 'b.json']);
  });

  it('rejects an empty folder, a missing path and duplicate conversation ids', () => {
    mkdirSync(join(folder.path, 'empty'));
    expect(failure(() => loadKeyFactConversations(['empty'], folder.path)).message).toBe('empty holds no *.json conversation files.');
    expect(failure(() => loadKeyFactConversations(['gone'], folder.path)).message).toBe('Cannot read gone: no such file or folder.');
    writeFileSync(join(folder.path, 'one.json'), JSON.stringify(keyFactFile()), 'utf8');
    writeFileSync(join(folder.path, 'two.json'), JSON.stringify(keyFactFile()), 'utf8');
    expect(failure(() => loadKeyFactConversations(['one.json', 'two.json'], folder.path)).message).toBe(
      'two.json and one.json both have the id "tiny"; conversation ids must be unique.',
    );
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Recall } from '../../src/memory/long-term-api.js';
import { createWorkspace, type Workspace } from './helpers.js';

let ws: Workspace;

beforeEach(() => {
  ws = createWorkspace();
});
afterEach(() => ws.cleanup());

describe('strata memories recall', () => {
  beforeEach(async () => {
    for (const args of [
      ['memories', 'add', "Mom's birthday is May 4", '--name', 'mom-birthday', '--tag', 'family/birthdays'],
      ['memories', 'add', 'Never schedule anything on a Saturday'],
      ['memories', 'add', 'Calls go by Lisbon time'],
    ]) {
      expect((await ws.run(args)).code).toBe(0);
    }
    expect((await ws.run(['memories', 'link', 'M3', 'relates-to', 'M2'])).code).toBe(0);
  });

  it('prints what bears on the query, best first, with how it was found and why, as a table and as JSON', async () => {
    const table = await ws.run(['memories', 'recall', 'can', 'we', 'meet', 'on', 'Saturday?']);
    expect(table.stderr).toBe('');
    expect(table.stdout).toMatch(/^key\s+score\s+path\s+value\s+why$/mu);
    expect(table.stdout).toMatch(/^M2\s+0\.50\s+words\s+Never schedule anything on a Saturday\s+shares "saturday" with the query$/mu);
    expect(table.stdout).toMatch(/^M3\s+0\.25\s+link\s+Calls go by Lisbon time\s+linked: it relates-to M2$/mu);
    const json = JSON.parse((await ws.run(['memories', 'recall', 'family birthdays', '--depth', '0', '--json'])).stdout) as Recall;
    expect(json.nothingRelevant).toBe(false);
    expect(json.memories.map((entry) => [entry.memory.key, entry.path, entry.reason])).toEqual([['M1', 'tag', 'tagged family/birthdays, which the query names']]);
  });

  it('says when nothing bears on the query, and refuses a recall with nothing to go on or a wrong edge type', async () => {
    const none = await ws.run(['memories', 'recall', 'weather', 'tomorrow']);
    expect([none.code, none.stdout]).toEqual([0, 'Nothing in long-term memory bears on that.\n']);
    const empty = await ws.run(['memories', 'recall']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/Say what to recall: a query, or --tag/u);
    const wrong = await ws.run(['memories', 'recall', 'Saturday', '--edge', 'likes']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/edgeTypes is a list of relates-to, contradicts, supersedes, part-of, caused-by; got "likes"/u);
    const filtered = JSON.parse((await ws.run(['memories', 'recall', '--changed-since', '2000-01-01', '--json'])).stdout) as Recall;
    expect(filtered.memories).toHaveLength(3);
  });
});

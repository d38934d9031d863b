import { existsSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkspace, plainConversation, type Workspace } from './helpers.js';

let ws: Workspace;
beforeEach(() => {
  ws = createWorkspace();
});
afterEach(() => ws.cleanup());

function demoFolders(): string[] {
  return readdirSync(tmpdir()).filter((name) => name.startsWith('strata-demo-'));
}

describe('strata demo', () => {
  it('replays the bundled example within its budget and reports a large token reduction (--json)', async () => {
    const before = new Set(demoFolders());
    const result = await ws.run(['demo', '--json'], { noDb: true });
    expect(result.code).toBe(0);
    const data = JSON.parse(result.stdout) as {
      conversation: string;
      originalTokens: number;
      budget: number;
      contextTokens: number;
      tokenReduction: number;
      facts: unknown[];
      package: { budget: number; tokens: number; messages: unknown[] };
    };
    expect(Object.keys(data)).toEqual(['conversation', 'originalTokens', 'textTokens', 'budget', 'contextTokens', 'tokenReduction', 'facts', 'package']);
    expect(data.conversation).toBe('support-app-migration');
    expect(data.budget).toBe(600);
    expect(data.contextTokens).toBeLessThanOrEqual(data.budget);
    expect(data.package.tokens).toBe(data.contextTokens);
    expect(data.tokenReduction).toBeGreaterThan(0.5);
    expect(data.originalTokens).toBeGreaterThan(data.contextTokens);
    expect(demoFolders().filter((name) => !before.has(name))).toEqual([]);
  });

  it('prints the header, memory, sections, messages, omissions and the reduction line', async () => {
    const result = await ws.run(['demo', '--budget', '800', '--query', 'database']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Conversation support-app-migration: 48 turns, 96 messages, [\d,]+ tokens of text, [\d,]+ as chat messages\n/u);
    expect(result.stdout).toContain('Memory (');
    expect(result.stdout).toMatch(/^section\s+items\s+tokens$/mu);
    expect(result.stdout).toContain('── system ');
    expect(result.stdout).toMatch(/Token reduction: [\d,]+ → [\d,]+ tokens \(\d+\.\d % smaller\)\n$/u);
  });

  it('prints omission counts that add up: distinct messages, and the reasons with a message counted once under each', async () => {
    const result = await ws.run(['demo']);
    expect(result.code).toBe(0);
    const header = /^Omitted \(([\d,]+) messages(?:; ([\d,]+) of them for more than one reason, so the reasons below count ([\d,]+))?\):$/mu.exec(result.stdout);
    expect(header).not.toBeNull();
    const number = (text: string | undefined): number => Number((text ?? '0').replace(/,/gu, ''));
    const block = result.stdout.slice(result.stdout.indexOf(header?.[0] ?? '')).split('\n\n')[0] ?? '';
    const listed = [...block.matchAll(/^ {2}([\d,]+) messages?: /gmu)].reduce((sum, match) => sum + number(match[1]), 0);
    const distinct = number(header?.[1]);
    if (header?.[3] === undefined) expect(listed).toBe(distinct);
    else {
      expect(listed).toBe(number(header[3]));
      expect(listed).toBeGreaterThan(distinct);
      expect(listed - distinct).toBeGreaterThanOrEqual(number(header[2]));
    }
    // Each reason's count is the package's own: the listed messages, or those of the older turns left out whole.
    const data = JSON.parse((await ws.run(['demo', '--json'])).stdout) as { package: { omitted: Array<{ reason: string; messageCount: number; turns: unknown }> } };
    const shown = new Map([...block.matchAll(/^ {2}([\d,]+) messages?: (.+)$/gmu)].map((match) => [match[2], number(match[1])]));
    expect(shown).toEqual(new Map(data.package.omitted.map((omission) => [omission.reason, omission.messageCount])));
    expect(data.package.omitted.filter((omission) => omission.turns !== null).length).toBe(1);
  });

  it('counts the conversation\'s text as `sessions` does, and its chat messages apart', async () => {
    const demo = await ws.run(['demo', '--keep', '--json'], { noDb: true });
    const data = JSON.parse(demo.stdout) as { textTokens: number; originalTokens: number };
    const kept = /Kept the demo database: (.+)\n/u.exec(demo.stderr)?.[1] ?? '';
    const listed = JSON.parse((await ws.run(['sessions', '--db', kept, '--json'], { noDb: true })).stdout) as Array<{ tokenCount: number }>;
    rmSync(dirname(kept), { recursive: true, force: true });
    expect(listed.map((session) => session.tokenCount)).toEqual([data.textTokens]);
    // Each of the 96 messages costs the chat format's overhead on top of its text.
    expect(data.originalTokens).toBeGreaterThan(data.textTokens);
  });

  it('replays another file and keeps the database with --keep', async () => {
    ws.write('mini.json', JSON.stringify({ id: 'mini', budget: 2000, messages: plainConversation(4) }));
    const result = await ws.run(['demo', '--file', 'mini.json', '--keep', '--json'], { noDb: true });
    expect(result.code).toBe(0);
    const data = JSON.parse(result.stdout) as { conversation: string; budget: number };
    expect(data).toMatchObject({ conversation: 'mini', budget: 2000 });
    const kept = /Kept the demo database: (.+)\n/u.exec(result.stderr)?.[1] ?? '';
    expect(existsSync(kept)).toBe(true);
    rmSync(dirname(kept), { recursive: true, force: true });
  });

  it('rejects a missing --file and a bad --budget with exit 2', async () => {
    expect((await ws.run(['demo', '--file', 'nope.json'])).code).toBe(2);
    const bad = await ws.run(['demo', '--budget', 'lots']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--budget');
  });
});

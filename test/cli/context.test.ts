import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contextFooter, omittedSummary } from '../../src/cli/commands/context.js';
import type { ContextPackage } from '../../src/context/context-package.js';
import { createMemory } from '../../src/memory/create-memory.js';
import { createWorkspace, plainConversation, type Workspace } from './helpers.js';

let ws: Workspace;
let sessionId: string;

beforeEach(async () => {
  ws = createWorkspace();
  const file = ws.write('conversation.json', JSON.stringify(plainConversation(20)));
  const result = await ws.run(['import', file, '--json']);
  sessionId = (JSON.parse(result.stdout) as { sessionId: string }).sessionId;
});
afterEach(() => ws.cleanup());

describe('strata context', () => {
  it('prints exactly the package JSON, equal to what the library renders, within the budget', async () => {
    const budget = 300;
    const result = await ws.run(['context', sessionId, '--budget', String(budget), '--json']);
    expect(result.code).toBe(0);
    const data = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(data)).toEqual(['budget', 'tokens', 'messages', 'sections', 'omitted', 'warnings']);
    expect(data.budget).toBe(budget);
    expect(data.tokens).toBeLessThanOrEqual(budget);

    const messages = data.messages as Array<Record<string, unknown>>;
    for (const message of messages) expect(Object.keys(message).sort()).toEqual(['content', 'role']);
    for (const section of data.sections as Array<Record<string, unknown>>) {
      expect(Object.keys(section)).toEqual(['name', 'tokens', 'items']);
      for (const item of section.items as Array<Record<string, unknown>>) expect(Object.keys(item)).toEqual(['text', 'tokens', 'sourceMessageIds', 'kind', 'turn', 'date', 'tier']);
    }
    for (const omission of data.omitted as Array<Record<string, unknown>>) expect(Object.keys(omission)).toEqual(['sourceMessageIds', 'turns', 'messageCount', 'reason']);

    const memory = createMemory({ path: ws.db, env: {} });
    try {
      const pkg = await (await memory.sessions.open(sessionId)).context({ budget });
      expect(messages).toEqual(pkg.render());
      expect(result.stdout).toBe(`${JSON.stringify(pkg.toJSON())}\n`);
    } finally {
      await memory.close();
    }
  });

  it('prints the rendered messages and a footer', async () => {
    const result = await ws.run(['context', sessionId, '--budget', '400', '--query', 'tomatoes']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^── (system|user) /u);
    expect(result.stdout).toMatch(/\n\d[\d,]* \/ 400 tokens · \d+ facts? · \d+ window messages? · \d+ history lines? · \d+ recalled · omitted turns 1–\d+ \(\d+ messages\)(?: and \d+ messages? for other reasons)?\n$/u);
    const memory = createMemory({ path: ws.db, env: {} });
    try {
      const pkg = await (await memory.sessions.open(sessionId)).context({ budget: 400, query: 'tomatoes' });
      expect(result.stdout.endsWith(`${contextFooter(pkg)}\n`)).toBe(true);
    } finally {
      await memory.close();
    }
  });

  it('says what was left out: the older turns as a range, and the other messages apart, each counted once', () => {
    const omission = (sourceMessageIds: string[], reason: string, turns: { from: number; to: number } | null = null, messageCount = sourceMessageIds.length) => ({ sourceMessageIds, turns, messageCount, reason });
    const packageOf = (omitted: ReturnType<typeof omission>[]) => ({ omitted }) as unknown as ContextPackage;
    expect(omittedSummary(packageOf([]))).toBe('omitted 0 messages');
    expect(omittedSummary(packageOf([omission(['m1', 'm2'], 'budget: raw window turn did not fit'), omission(['m2'], 'budget: base-truth fact did not fit')]))).toBe('omitted 2 messages');
    expect(omittedSummary(packageOf([omission([], 'budget: turns 1–42 did not fit', { from: 1, to: 42 }, 84)]))).toBe('omitted turns 1–42 (84 messages)');
    expect(
      omittedSummary(packageOf([omission(['m1', 'm2', 'm3'], 'budget: base-truth fact did not fit'), omission(['m3'], 'budget: recall share full'), omission([], 'budget: turns 1–42 did not fit', { from: 1, to: 42 }, 1)])),
    ).toBe('omitted turns 1–42 (1 message) and 3 messages for other reasons');
  });

  it.each([['abc'], ['0'], ['12abc'], ['-5'], ['1.5'], ['']])('rejects --budget %j with exit 2 naming --budget', async (value) => {
    const result = await ws.run(['context', sessionId, '--budget', value]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^strata: .*--budget/u);
    expect(result.stdout).toBe('');
  });

  it('uses the configured context budget without --budget, and says so in its JSON', async () => {
    const result = await ws.run(['context', sessionId, '--json']);
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { budget: number }).budget).toBe(30_000);
    const configured = await ws.run(['context', sessionId, '--json'], { env: { STRATA_CONTEXT_BUDGET: '700' } });
    expect((JSON.parse(configured.stdout) as { budget: number; tokens: number }).budget).toBe(700);
  });

  it('carries the package warnings in its JSON (a pinned rule dropped to fit a tiny budget)', async () => {
    const added = await ws.run(['facts', sessionId, '--add', 'card numbers: never store card numbers anywhere in the system, in logs or in backups', '--kind', 'exception', '--reason', 'compliance']);
    expect(added.code).toBe(0);
    const result = await ws.run(['context', sessionId, '--budget', '12', '--json']);
    const data = JSON.parse(result.stdout) as { warnings: string[] };
    expect(data.warnings.length).toBeGreaterThan(0);
    expect(data.warnings[0]).toContain('card numbers: never');
  });

  it('exits 3 with the id for an unknown session', async () => {
    const result = await ws.run(['context', 'no-such-session', '--budget', '500']);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^strata: .*no-such-session/u);
  });
});

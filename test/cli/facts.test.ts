import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBudgetSession } from './fixtures.js';
import { createWorkspace, type Workspace } from './helpers.js';

let ws: Workspace;
let sessionId: string;

beforeEach(async () => {
  ws = createWorkspace();
  sessionId = await createBudgetSession(ws.db);
});
afterEach(() => ws.cleanup());

describe('strata facts', () => {
  it('shows the old value at the earlier turn and the corrected one now', async () => {
    const now = await ws.run(['facts', sessionId]);
    expect(now.code).toBe(0);
    expect(now.stdout).toContain('Constraints:');
    expect(now.stdout).toContain('monthly budget: $1,200 (turn 3)');
    expect(now.stdout).not.toContain('$900');

    const before = await ws.run(['facts', sessionId, '--at-turn', '2']);
    expect(before.code).toBe(0);
    expect(before.stdout).toContain('As of turn 2:');
    expect(before.stdout).toContain('monthly budget: $900 (turn 1)');
    expect(before.stdout).not.toContain('$1,200');

    const atZero = await ws.run(['facts', sessionId, '--at-turn', '0']);
    expect(atZero.stdout).toContain('(no facts)');
  });

  it('prints the arrays with --json', async () => {
    const before = JSON.parse((await ws.run(['facts', sessionId, '--at-turn', '1', '--json'])).stdout) as Array<{ text: string }>;
    expect(before.map((fact) => fact.text)).toEqual(['monthly budget: $900']);
    const now = JSON.parse((await ws.run(['--json', 'facts', sessionId])).stdout) as Array<{ text: string }>;
    expect(now.map((fact) => fact.text)).toEqual(['monthly budget: $1,200']);

    const events = JSON.parse((await ws.run(['facts', sessionId, '--events', '--json'])).stdout) as Array<{ op: string; turn: number }>;
    expect(events.map((event) => [event.op, event.turn])).toEqual([
      ['add', 1],
      ['update', 3],
    ]);
  });

  it('lists fact events with turn, op, actor and old → new', async () => {
    const result = await ws.run(['facts', sessionId, '--events']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^turn\s+op\s+actor\s+change\s+reason$/mu);
    expect(result.stdout).toMatch(/3\s+update\s+fixture-manager\s+monthly budget: \$900 → monthly budget: \$1,200/u);
  });

  it('parses --at-turn strictly', async () => {
    for (const value of ['x', '1.5', '-1', '2turns']) {
      const result = await ws.run(['facts', sessionId, '--at-turn', value]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('--at-turn');
    }
  });

  it('exits 3 for an unknown session', async () => {
    const result = await ws.run(['facts', 'missing-session']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('missing-session');
  });
});

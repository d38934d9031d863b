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

describe('strata facts --undo', () => {
  async function events(): Promise<Array<{ id: string; op: string; turn: number; actor: string; reason: string; newText: string | null }>> {
    return JSON.parse((await ws.run(['facts', sessionId, '--events', '--json'])).stdout) as Awaited<ReturnType<typeof events>>;
  }

  it('reverts an update with a new user event and keeps the history', async () => {
    const [added, updated] = await events();
    const result = await ws.run(['facts', sessionId, '--undo', updated?.id ?? '']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^Undid event ${updated?.id ?? ''} with event \\S+ \\(update\\): monthly budget: \\$1,200 → monthly budget: \\$900`, 'u'));
    // The value is back as it was established, at turn 1, not at the turn of the undo (4).
    expect((await ws.run(['facts', sessionId])).stdout).toContain('monthly budget: $900 (turn 1)');
    // A fresh read of the document and the replay of its events agree.
    expect((await ws.run(['facts', sessionId, '--at-turn', '4'])).stdout).toContain('monthly budget: $900 (turn 1)');

    const after = await events();
    expect(after.slice(0, 2)).toEqual([added, updated]);
    expect(after[2]).toMatchObject({ op: 'update', actor: 'user', reason: `undo of event ${updated?.id ?? ''}`, newText: 'monthly budget: $900', turn: 4 });
    // The document at turn 3 still shows the correction; the undo belongs to the latest turn.
    expect((await ws.run(['facts', sessionId, '--at-turn', '3'])).stdout).toContain('$1,200');
  });

  it('prints the undo event with --json', async () => {
    const [added, updated] = await events();
    const undone = JSON.parse((await ws.run(['facts', sessionId, '--undo', updated?.id ?? '', '--json'])).stdout) as { op: string; actor: string; reason: string };
    expect(undone).toMatchObject({ op: 'update', actor: 'user', reason: `undo of event ${updated?.id ?? ''}` });
    // Undoing the undo brings the correction back; the add is behind two later events now.
    const redo = await ws.run(['--json', 'facts', sessionId, '--undo', (await events())[2]?.id ?? '']);
    expect(redo.code).toBe(0);
    expect((await ws.run(['facts', sessionId])).stdout).toContain('monthly budget: $1,200 (turn 3)');
    const refused = await ws.run(['facts', sessionId, '--undo', added?.id ?? '']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/changed after event .* first/u);
  });

  it('exits 2 for an unknown event and 3 for an unknown session', async () => {
    const unknown = await ws.run(['facts', sessionId, '--undo', 'no-such-event']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No fact event "no-such-event"');
    expect(unknown.stderr).toContain('--events --json');
    const missing = await ws.run(['facts', 'missing-session', '--undo', 'no-such-event']);
    expect(missing.code).toBe(3);
  });
});

describe('strata facts corrections', () => {
  it('adds, edits and removes a fact with --add, --edit, --remove and a --reason', async () => {
    const added = await ws.run(['facts', sessionId, '--add', 'approval: Maya signs off every deploy', '--kind', 'constraint', '--reason', 'agreed in standup', '--json']);
    expect(added.code).toBe(0);
    const event = JSON.parse(added.stdout) as { id: string; op: string; actor: string; factId: string };
    expect(event).toMatchObject({ op: 'add', actor: 'user' });
    const edited = await ws.run(['facts', sessionId, '--edit', event.id, '--text', 'approval: Maya or Tomás signs off', '--reason', 'Tomás can too']);
    expect(edited.code).toBe(0);
    expect(edited.stdout).toMatch(/^Recorded event \S+ \(update by user\): approval: Maya signs off every deploy → approval: Maya or Tomás signs off$/mu);
    const removed = await ws.run(['facts', sessionId, '--remove', event.factId, '--reason', 'no longer needed']);
    expect(removed.code).toBe(0);
    const now = await ws.run(['facts', sessionId]);
    expect(now.stdout).not.toContain('approval');
    const events = await ws.run(['facts', sessionId, '--events']);
    expect(events.stdout).toMatch(/add\s+user\s+→ approval: Maya signs off every deploy\s+agreed in standup/u);
  });

  it('exits 2 naming the problem for a missing reason, an unknown fact or mixed options, and changes nothing', async () => {
    const before = (await ws.run(['facts', sessionId, '--events', '--json'])).stdout;
    const noReason = await ws.run(['facts', sessionId, '--add', 'x: y']);
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain('--reason');
    const unknown = await ws.run(['facts', sessionId, '--remove', 'nope', '--reason', 'r']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No fact or fact event nope');
    const mixed = await ws.run(['facts', sessionId, '--add', 'x: y', '--remove', 'nope', '--reason', 'r']);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('one of --add, --edit, --remove or --undo');
    const stray = await ws.run(['facts', sessionId, '--reason', 'r']);
    expect(stray.code).toBe(2);
    expect((await ws.run(['facts', sessionId, '--events', '--json'])).stdout).toBe(before);
  });
});

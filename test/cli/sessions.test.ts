import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkspace, plainConversation, type Workspace } from './helpers.js';

let ws: Workspace;
beforeEach(() => {
  ws = createWorkspace();
});
afterEach(() => ws.cleanup());

async function importSession(title: string, turns = 2): Promise<string> {
  const file = ws.write(`${title}.json`, JSON.stringify(plainConversation(turns)));
  const result = await ws.run(['import', file, '--title', title, '--json']);
  expect(result.code).toBe(0);
  return (JSON.parse(result.stdout) as { sessionId: string }).sessionId;
}

describe('strata sessions cleanup', () => {
  it('deletes (or with --dry-run lists) the sessions not updated for the given age, and refuses an age it cannot read', async () => {
    const old = await importSession('old');
    const recent = await importSession('recent');
    // Make one session look untouched for 40 days.
    const db = new Database(ws.db);
    db.prepare('UPDATE sessions SET updated_at = ? WHERE id = ?').run(new Date(Date.now() - 40 * 86_400_000).toISOString(), old);
    db.close();
    const dry = await ws.run(['sessions', 'cleanup', '--older-than', '30d', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^Would delete 1 session not updated since /u);
    expect(dry.stdout).toContain(old);
    const done = await ws.run(['sessions', 'cleanup', '--older-than', '30d', '--json']);
    expect(JSON.parse(done.stdout)).toMatchObject({ dryRun: false, sessions: [old] });
    const left = JSON.parse((await ws.run(['sessions', '--json'])).stdout) as Array<{ id: string }>;
    expect(left.map((session) => session.id)).toEqual([recent]);
    const bad = await ws.run(['sessions', 'cleanup', '--older-than', 'a month']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/such as 30d/u);
  });
});

describe('strata sessions', () => {
  it('lists sessions as a table and as JSON; `sessions` is `sessions list`', async () => {
    const empty = await ws.run(['sessions']);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toContain('No sessions');

    const first = await importSession('first', 2);
    const second = await importSession('second', 3);
    const table = await ws.run(['sessions']);
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^id\s+title\s+turns\s+messages\s+tokens\s+updated$/u);
    expect(lines).toHaveLength(4);
    expect(table.stdout).toContain(first);
    expect(table.stdout).toContain(second);

    const json = await ws.run(['sessions', 'list', '--json', '--limit', '1']);
    expect(json.code).toBe(0);
    const list = JSON.parse(json.stdout) as Array<{ id: string; turnCount: number }>;
    expect(list).toHaveLength(1);

    const bad = await ws.run(['sessions', 'list', '--limit', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--limit');
  });

  it('shows a session with its counts and last turns', async () => {
    const id = await importSession('shown', 7);
    const human = await ws.run(['sessions', 'show', id]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(`Session ${id} "shown"`);
    expect(human.stdout).toMatch(/turns\s+7/u);
    expect(human.stdout).toContain('Last 5 turns:');

    const json = await ws.run(['sessions', 'show', id, '--json']);
    const data = JSON.parse(json.stdout) as { session: { id: string }; facts: number; artifacts: number; recentTurns: Array<{ turn: number }> };
    expect(data.session.id).toBe(id);
    expect(typeof data.facts).toBe('number');
    expect(typeof data.artifacts).toBe('number');
    expect(data.recentTurns.map((turn) => turn.turn)).toEqual([3, 4, 5, 6, 7]);
  });

  it('renames a session', async () => {
    const id = await importSession('old-title');
    const result = await ws.run(['sessions', 'rename', id, 'New title']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`Renamed session ${id} to "New title"\n`);
    const json = await ws.run(['sessions', '--json']);
    expect((JSON.parse(json.stdout) as Array<{ title: string }>)[0]?.title).toBe('New title');

    const blank = await ws.run(['sessions', 'rename', id, '   ']);
    expect(blank.code).toBe(2);
  });

  it('deletes a session only with --yes', async () => {
    const id = await importSession('doomed');
    const refused = await ws.run(['sessions', 'delete', id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect(JSON.parse((await ws.run(['sessions', '--json'])).stdout)).toHaveLength(1);

    const deleted = await ws.run(['sessions', 'delete', id, '--yes']);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toBe(`Deleted session ${id}\n`);
    expect(JSON.parse((await ws.run(['sessions', '--json'])).stdout)).toEqual([]);

    const again = await ws.run(['sessions', 'delete', id, '--yes']);
    expect(again.code).toBe(3);
  });

  it('exits 3 naming the id for an unknown session', async () => {
    for (const args of [['sessions', 'show', 'nope-123'], ['sessions', 'rename', 'nope-123', 'x'], ['sessions', 'delete', 'nope-123', '--yes']]) {
      const result = await ws.run(args);
      expect(result.code).toBe(3);
      expect(result.stderr).toMatch(/^strata: .*nope-123/u);
    }
  });

  it('takes the start of a session id when only one id starts so, and lists the ids when several do', async () => {
    const first = await importSession('kitchen');
    const second = await importSession('garden');
    // Ids made in the same millisecond share their first characters: the shortest start that tells them apart works.
    let length = 1;
    while (first.slice(0, length) === second.slice(0, length)) length += 1;
    const shown = await ws.run(['sessions', 'show', first.slice(0, length), '--json']);
    expect(shown.code).toBe(0);
    expect((JSON.parse(shown.stdout) as { session: { id: string } }).session.id).toBe(first);
    const facts = await ws.run(['facts', second.slice(0, length), '--json']);
    expect(facts.code).toBe(0);

    // (Time-ordered ids made one after the other share at least their first characters.)
    expect(length).toBeGreaterThan(1);
    const shared = first.slice(0, length - 1);
    const ambiguous = await ws.run(['context', shared, '--budget', '500']);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain(first);
    expect(ambiguous.stderr).toContain(second);
    expect(ambiguous.stderr).toContain('Give more of the id');
    // A start that names no session is an unknown session.
    expect((await ws.run(['context', 'zzz-none', '--budget', '500'])).code).toBe(3);
  });
});

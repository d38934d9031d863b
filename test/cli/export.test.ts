import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
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

describe('strata export', () => {
  it('exports Markdown with the title and the transcript', async () => {
    const result = await ws.run(['export', sessionId, '--format', 'md']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^# Hosting plan\n/u);
    expect(result.stdout).toContain('## Transcript');
    expect(result.stdout).toContain('Correction: the budget is now $1,200 per month.');
  });

  it('writes JSON to a file that re-imports with --new-ids (and not without)', async () => {
    const exported = await ws.run(['export', sessionId, '--format', 'json', '--out', 'session.json']);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toBe('');
    expect(exported.stderr).toBe('Wrote session.json\n');
    // With --json, what was written is said on stdout as JSON.
    const described = await ws.run(['export', sessionId, '--format', 'md', '--out', 'session.md', '--json']);
    expect(JSON.parse(described.stdout)).toEqual({ sessionId, format: 'md', path: join(ws.dir, 'session.md'), bytes: statSync(join(ws.dir, 'session.md')).size });
    const file = join(ws.dir, 'session.json');
    expect((JSON.parse(readFileSync(file, 'utf8')) as { session: { id: string } }).session.id).toBe(sessionId);

    const clash = await ws.run(['import', file]);
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain('--new-ids');

    const imported = await ws.run(['import', file, '--new-ids', '--json']);
    expect(imported.code).toBe(0);
    const copy = JSON.parse(imported.stdout) as { sessionId: string; messages: number };
    expect(copy.sessionId).not.toBe(sessionId);
    expect(copy.messages).toBe(8);

    const facts = JSON.parse((await ws.run(['facts', copy.sessionId, '--at-turn', '2', '--json'])).stdout) as Array<{ text: string }>;
    expect(facts.map((fact) => fact.text)).toEqual(['monthly budget: $900']);
  });

  it('requires a known --format', async () => {
    expect((await ws.run(['export', sessionId])).code).toBe(2);
    const bad = await ws.run(['export', sessionId, '--format', 'pdf']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--format');
  });

  it('exits 3 for an unknown session', async () => {
    const result = await ws.run(['export', 'unknown-id', '--format', 'json']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('unknown-id');
  });
});

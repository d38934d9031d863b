import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MaintenanceRun } from '../../src/memory/long-term-api.js';
import { createWorkspace, type Workspace } from './helpers.js';

let ws: Workspace;

beforeEach(() => {
  ws = createWorkspace();
});
afterEach(() => ws.cleanup());

async function add(...values: string[][]): Promise<void> {
  for (const args of values) expect((await ws.run(['memories', 'add', ...args])).code).toBe(0);
}

describe('strata memories tend, runs, run, approve and reject', () => {
  it('runs the agents once and prints each action with its reason; the run is listed and shown again', async () => {
    await add(['The staging server runs in eu-west with 4 cores.', '--tag', 'infra'], ['The staging server runs in eu-west with 8 cores.', '--tag', 'infra'], ['I prefer aisle seats on trains.']);
    const tended = await ws.run(['memories', 'tend']);
    expect(tended.stderr).toBe('');
    expect(tended.stdout).toMatch(/^Maintenance run \S+ \(demand, .*; agents: archiver, corrector, condenser, linker, tagger, reviewer\)$/mu);
    expect(tended.stdout).toMatch(/^examined 3 memories, 2 changes made, 2 memories flagged for you\.$/mu);
    expect(tended.stdout).toContain('[0] linker link M1 contradicts M2 (applied)\n    both say staging, server, runs but give 4 and 8: M2 ("The staging server runs in eu-west with 8 cores.")');
    expect(tended.stdout).toContain('[1] tagger tag M3: preferences (applied)\n    untagged: by its words it belongs under "preferences"');
    expect(tended.stdout).toContain('[2] reviewer M1 (flagged)\n    contradicts M2');

    const runs = JSON.parse((await ws.run(['memories', 'runs', '--json'])).stdout) as MaintenanceRun[];
    expect(runs).toHaveLength(1);
    expect(runs[0]?.actions.map((action) => [action.agent, action.kind])).toEqual([
      ['linker', 'link'],
      ['tagger', 'tag'],
      ['reviewer', 'flag'],
      ['reviewer', 'flag'],
    ]);
    const listed = await ws.run(['memories', 'runs']);
    expect(listed.stdout).toMatch(new RegExp(`^${runs[0]!.id}\\s+\\S+ \\S+\\s+demand\\s+examined 3 memories, 2 changes made`, 'mu'));
    const shown = await ws.run(['memories', 'run', runs[0]!.id]);
    expect(shown.stdout).toBe(tended.stdout);
    expect((await ws.run(['memories', 'show', 'M3', '--json'])).stdout).toContain('"tags":["preferences"]');
  });

  it('holds subtags for approval with STRATA_TAG_REFINEMENT=approve, and approve or reject settles each by its number', async () => {
    const env = { STRATA_TAG_REFINEMENT: 'approve', STRATA_REFINE_TAGS_ABOVE: '3' };
    for (const what of ['invoices', 'invoices', 'invoices', 'deliveries', 'deliveries', 'deliveries']) await add([`Never send ${what} late.`, '--tag', 'rules']);
    const tended = await ws.run(['memories', 'tend', '--agent', 'tagger'], { env });
    expect(tended.stdout).toMatch(/2 proposals waiting \(strata memories approve\|reject \S+ <index>\)/u);
    expect(tended.stdout).toContain('[1] tagger tag M1 M2 M3: rules/invoices (proposed)');
    const [run] = JSON.parse((await ws.run(['memories', 'runs', '--json'])).stdout) as MaintenanceRun[];
    const approved = await ws.run(['memories', 'approve', run!.id, '1']);
    expect(approved.stdout).toContain('[1] tagger tag M1 M2 M3: rules/invoices (approved)');
    expect((await ws.run(['memories', 'list', '--tag', 'rules/invoices', '--json'])).stdout).toContain('Never send invoices late.');
    const rejected = await ws.run(['memories', 'reject', run!.id, '0']);
    expect(rejected.stdout).toContain('[0] tagger tag M4 M5 M6: rules/deliveries (rejected)');
    const again = await ws.run(['memories', 'reject', run!.id, '0']);
    expect([again.code, again.stderr]).toEqual([2, `strata: Action 0 of run "${run!.id}" is rejected, not proposed: only proposals are approved or rejected.\n`]);
  });

  it('refuses an unknown agent or run, and says when there are no runs', async () => {
    expect((await ws.run(['memories', 'runs'])).stdout).toBe('No maintenance runs yet. Run one with `strata memories tend`.\n');
    const agent = await ws.run(['memories', 'tend', '--agent', 'gardener']);
    expect(agent.code).toBe(2);
    expect(agent.stderr).toMatch(/gardener/u);
    const unknown = await ws.run(['memories', 'run', 'no-such-run']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/No maintenance run "no-such-run" in this tenant/u);
  });
});

/**
 * The store contract for long-term memory maintenance, called by `describeLongTermContract`
 * (`long-term-contract.ts`): which current memories are due for tending, and the runs kept, whole, per tenant.
 */
import { describe, expect, it } from 'vitest';
import type { MaintenanceRun } from '../../src/core/maintenance-run.js';
import { storePerTest, type OpenStore } from './store-contract.js';
import { at, remember } from './long-term-links-contract.js';

function maintenanceRun(id: string, minutes: number, fields: Partial<MaintenanceRun> = {}): MaintenanceRun {
  return {
    id,
    trigger: 'demand',
    agents: ['archiver', 'reviewer'],
    startedAt: at(minutes),
    finishedAt: at(minutes + 1),
    examined: 2,
    limits: { memories: 1000, changes: 200 },
    modelCalls: 0,
    actions: [
      { agent: 'archiver', kind: 'deprecate', memoryIds: ['mem-old'], reason: 'superseded by M2 ("€75 an hour")', status: 'applied' },
      { agent: 'reviewer', kind: 'flag', memoryIds: ['mem-new'], reason: 'contradicts M3', status: 'applied' },
      { agent: 'reviewer', kind: 'link', memoryIds: ['mem-new'], toId: 'mem-old', edgeType: 'supersedes', reason: 'says it changes', status: 'proposed' },
    ],
    leftOut: 4,
    failures: [{ agent: 'reviewer', message: 'café “quoted” — and unicode ✓' }],
    ...fields,
  };
}

export function describeLongTermRunsContract(openStore: OpenStore): void {
  describe('maintenance', () => {
    const store = storePerTest(openStore);

    it('gives current memories never tended first, then the least recently tended, within the limit and the tenant', async () => {
      const memories = store().tenant('tenant-alpha').longTerm;
      for (const id of ['mem-a', 'mem-b', 'mem-c', 'mem-d', 'mem-gone']) await remember(memories, id);
      await remember(store().tenant('tenant-beta').longTerm, 'mem-beta');
      await memories.mark({ ids: ['mem-a'], what: 'tended', at: at(20) });
      await memories.mark({ ids: ['mem-c'], what: 'tended', at: at(10) });
      await memories.revise({ id: 'mem-gone', deprecated: true, by: 'agent:archiver', reason: 'superseded', at: at(5) });
      const ids = async (limit: number): Promise<string[]> => (await memories.due({ limit })).map((memory) => memory.id);
      expect(await ids(10)).toEqual(['mem-b', 'mem-d', 'mem-c', 'mem-a']);
      expect(await ids(3)).toEqual(['mem-b', 'mem-d', 'mem-c']);
      expect(await ids(0)).toEqual([]);
    });

    it('keeps a run whole, replaces it by id, and lists the newest first within the tenant', async () => {
      const memories = store().tenant('tenant-alpha').longTerm;
      const first = maintenanceRun('run-1', 0);
      await memories.saveRun({ run: first, keep: 10 });
      await memories.saveRun({ run: maintenanceRun('run-2', 30, { trigger: 'schedule', actions: [] }), keep: 10 });
      await memories.saveRun({ run: maintenanceRun('run-0', 15), keep: 10 });
      await store().tenant('tenant-beta').longTerm.saveRun({ run: maintenanceRun('run-beta', 60), keep: 10 });
      expect(await memories.getRun({ id: 'run-1' })).toEqual(first);
      expect(await memories.getRun({ id: 'run-beta' })).toBeNull();
      expect((await memories.runs({ limit: 10 })).map((run) => run.id)).toEqual(['run-2', 'run-0', 'run-1']);
      expect((await memories.runs({ limit: 1, offset: 1 })).map((run) => run.id)).toEqual(['run-0']);

      const settled = { ...first, actions: first.actions.map((action) => (action.status === 'proposed' ? { ...action, status: 'approved' as const } : action)) };
      await memories.saveRun({ run: settled, keep: 10 });
      expect(await memories.getRun({ id: 'run-1' })).toEqual(settled);
      expect(await memories.runs({ limit: 10 })).toHaveLength(3);
    });

    it('keeps only the newest runs asked for, in the tenant of the run saved', async () => {
      const memories = store().tenant('tenant-alpha').longTerm;
      const beta = store().tenant('tenant-beta').longTerm;
      await beta.saveRun({ run: maintenanceRun('run-beta', 0), keep: 5 });
      for (const minutes of [10, 20, 30, 40]) await memories.saveRun({ run: maintenanceRun(`run-${String(minutes)}`, minutes), keep: 2 });
      expect((await memories.runs({ limit: 10 })).map((run) => run.id)).toEqual(['run-40', 'run-30']);
      expect(await memories.getRun({ id: 'run-10' })).toBeNull();
      // Settling a proposal of a kept run replaces it and removes nothing more.
      const kept = (await memories.getRun({ id: 'run-30' }))!;
      await memories.saveRun({ run: { ...kept, leftOut: 9 }, keep: 2 });
      expect((await memories.runs({ limit: 10 })).map((run) => [run.id, run.leftOut])).toEqual([
        ['run-40', 4],
        ['run-30', 9],
      ]);
      expect((await beta.runs({ limit: 10 })).map((run) => run.id)).toEqual(['run-beta']);
    });
  });
}

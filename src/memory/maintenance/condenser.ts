/** The local condenser: a verbose memory gets a shorter value, the original kept as its previous version (`core/memory-condensing.ts`). */
import { condense } from '../../core/memory-condensing.js';
import type { MaintenanceAgent, PlannedAction } from './agent.js';

export const localCondenser: MaintenanceAgent = {
  name: 'condenser',
  plan(memories) {
    const actions: PlannedAction[] = [];
    for (const memory of memories) {
      const condensed = condense(memory.value);
      if (condensed !== null) actions.push({ kind: 'revise', memoryIds: [memory.id], version: memory.version, value: condensed.value, reason: condensed.reason });
    }
    return Promise.resolve(actions);
  },
};

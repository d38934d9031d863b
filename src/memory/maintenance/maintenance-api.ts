/**
 * The maintenance part of a tenant's long-term memory API (`memory.memories.tend`, `runs`, `run`,
 * `approve`, `reject`): runs are made one at a time per tenant in this process, and input is checked here.
 */
import { describeValue } from '../../core/describe-value.js';
import { StrataError } from '../../core/errors.js';
import type { LongTermMemories } from '../long-term-api.js';
import { runMaintenance, type MaintenanceParts } from './maintenance-run.js';
import { requireRun, settleProposal } from './proposals.js';

type MaintenanceApi = Pick<LongTermMemories, 'tend' | 'runs' | 'run' | 'approve' | 'reject'>;

/** The maintenance API over `parts`; `serially` runs the tenant's runs and settlements one at a time (the scheduled runs too). */
export function maintenanceApi(parts: MaintenanceParts, serially: <T>(work: () => Promise<T>) => Promise<T>): MaintenanceApi {
  return {
    tend: async (options = {}) => {
      if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new StrataError('INVALID_INPUT', `tend() takes { agents?, limit?, maxChanges? }; got ${describeValue(options)}.`);
      if (options.agents !== undefined && !Array.isArray(options.agents)) throw new StrataError('INVALID_INPUT', `agents is a list of agent names; got ${describeValue(options.agents)}.`);
      return serially(() => runMaintenance(parts, options, 'demand'));
    },
    runs: async (options = {}) => {
      if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new StrataError('INVALID_INPUT', `runs() takes { limit?, offset? }; got ${describeValue(options)}.`);
      const limit = options.limit ?? 20;
      const offset = options.offset ?? 0;
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000 || !Number.isInteger(offset) || offset < 0) throw new StrataError('INVALID_INPUT', 'runs() takes a whole limit from 1 to 1,000 and an offset ≥ 0.');
      return parts.repository.runs({ limit, offset });
    },
    run: (runId) => requireRun(parts.repository, runId),
    approve: (runId, index) => serially(() => parts.atomically((repository) => settleProposal(repository, runId, index, 'approve', parts.now()))),
    reject: (runId, index) => serially(() => parts.atomically((repository) => settleProposal(repository, runId, index, 'reject', parts.now()))),
  };
}

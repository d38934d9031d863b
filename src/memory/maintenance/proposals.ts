/**
 * A person settles what a run proposed: approving applies the action as its agent would have and marks
 * it approved; rejecting marks it rejected and changes nothing else. Either is one transaction, and the
 * run's record keeps the decision.
 */
import { describeValue } from '../../core/describe-value.js';
import { StrataError } from '../../core/errors.js';
import { KEPT_RUNS, type ActionStatus, type MaintenanceRun } from '../../core/maintenance-run.js';
import type { LongTermRepository } from '../../store/long-term-store.js';
import { applyAction } from './apply-action.js';

export type Decision = 'approve' | 'reject';

/** The run with this id; NOT_FOUND naming how to list runs when there is none. */
export async function requireRun(repository: LongTermRepository, runId: unknown): Promise<MaintenanceRun> {
  if (typeof runId !== 'string' || runId.trim() === '' || runId.length > 256) throw new StrataError('INVALID_INPUT', `A maintenance run is named by its id as text; got ${describeValue(runId)}.`);
  const run = await repository.getRun({ id: runId });
  if (run === null) throw new StrataError('NOT_FOUND', `No maintenance run "${runId}" in this tenant; list runs with \`strata memories runs\` or memory.memories.runs().`, { details: { runId } });
  return run;
}

/** Approve or reject action `index` (0-based, as the run lists them) of a run; gives the run as it is after. */
export async function settleProposal(repository: LongTermRepository, runId: unknown, index: unknown, decision: Decision, at: string): Promise<MaintenanceRun> {
  const run = await requireRun(repository, runId);
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= run.actions.length) {
    const has = run.actions.length === 0 ? 'has no actions' : `has actions 0 to ${String(run.actions.length - 1)}`;
    throw new StrataError('INVALID_INPUT', `Run "${run.id}" ${has}; got ${describeValue(index)}.`);
  }
  const action = run.actions[index];
  if (action?.status !== 'proposed') {
    throw new StrataError('INVALID_INPUT', `Action ${String(index)} of run "${run.id}" is ${String(action?.status)}, not proposed: only proposals are approved or rejected.`);
  }
  let status: ActionStatus = 'rejected';
  let refused: string | null = null;
  if (decision === 'approve') {
    refused = await applyAction(repository, action, at);
    status = refused === null ? 'approved' : 'failed';
  }
  const settled: MaintenanceRun = {
    ...run,
    actions: run.actions.map((kept, position) => (position === index ? { ...kept, status } : kept)),
    failures: refused === null ? run.failures : [...run.failures, { agent: action.agent, message: `approving action ${String(index)}: ${refused}` }],
  };
  await repository.saveRun({ run: settled, keep: KEPT_RUNS });
  return settled;
}

/** Plain-text views of maintenance runs for `strata memories tend | runs | run`. */
import type { MaintenanceAction, MaintenanceRun } from '../../memory/long-term-api.js';
import { clip, formatTable, formatTime, plural } from '../format.js';

function counts(run: MaintenanceRun): { applied: number; proposed: number; flagged: number } {
  const made = (action: MaintenanceAction): boolean => action.kind !== 'flag' && (action.status === 'applied' || action.status === 'approved');
  return {
    applied: run.actions.filter(made).length,
    proposed: run.actions.filter((action) => action.status === 'proposed').length,
    flagged: run.actions.filter((action) => action.kind === 'flag').length,
  };
}

/** One line: what the run looked at and did. */
export function runSummary(run: MaintenanceRun): string {
  const { applied, proposed, flagged } = counts(run);
  const parts = [`examined ${plural(run.examined, 'memory', 'memories')}`, `${plural(applied, 'change')} made`];
  if (proposed > 0) parts.push(`${plural(proposed, 'proposal')} waiting (strata memories approve|reject ${run.id} <index>)`);
  if (flagged > 0) parts.push(`${plural(flagged, 'memory', 'memories')} flagged for you`);
  if (run.leftOut > 0) parts.push(`${plural(run.leftOut, 'action')} left for the next run (change limit ${String(run.limits.changes)})`);
  return parts.join(', ');
}

/** What an action did, with memory keys: "M3 supersedes M1", "M4: rules/invoices", "M2 → new value". */
function actionTarget(action: MaintenanceAction, keys: ReadonlyMap<string, string>): string {
  const key = (id: string): string => keys.get(id) ?? id;
  const memories = action.memoryIds.map(key).join(' ');
  switch (action.kind) {
    case 'link':
      return `${memories} ${String(action.edgeType)} ${key(action.toId ?? '')}`;
    case 'tag':
      return `${memories}: ${(action.tags ?? []).join(', ')}`;
    case 'revise':
      return `${memories} → ${clip(action.value ?? '', 48)}`;
    default:
      return memories;
  }
}

/** A run in full: its header, then each action numbered as approve/reject take it, its reason on the line below. */
export function runDetails(run: MaintenanceRun, keys: ReadonlyMap<string, string>): string {
  const lines = [`Maintenance run ${run.id} (${run.trigger}, ${formatTime(run.startedAt)}; agents: ${run.agents.join(', ')})`, runSummary(run) + '.'];
  for (const failure of run.failures) lines.push(`The ${failure.agent} failed: ${failure.message}`);
  if (run.actions.length === 0) return [...lines, 'Nothing needed doing.'].join('\n');
  lines.push('');
  for (const [index, action] of run.actions.entries()) {
    const status = action.kind === 'flag' ? 'flagged' : action.status;
    lines.push(`[${String(index)}] ${action.agent} ${action.kind === 'flag' ? '' : `${action.kind} `}${actionTarget(action, keys)} (${status})`, `    ${action.reason}`);
  }
  return lines.join('\n');
}

/** One row per run, the newest first. */
export function runTable(runs: readonly MaintenanceRun[]): string {
  return formatTable(
    [{ header: 'run' }, { header: 'started' }, { header: 'trigger' }, { header: 'summary' }],
    runs.map((run) => [run.id, formatTime(run.startedAt), run.trigger, runSummary(run)]),
  );
}

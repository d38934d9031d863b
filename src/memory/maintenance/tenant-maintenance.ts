/**
 * A tenant's maintenance as its runtime holds it: the API's maintenance methods over the tenant's
 * repositories with the local agents, and the background schedule (when `tendEveryHours` is above 0).
 */
import { KeyedMutex } from '../../core/keyed-mutex.js';
import type { LongTermMemories } from '../long-term-api.js';
import type { EngineParts } from '../engine-parts.js';
import { LOCAL_AGENTS } from './local-agents.js';
import { maintenanceApi } from './maintenance-api.js';
import { runMaintenance, type MaintenanceParts } from './maintenance-run.js';
import { TendSchedule } from './tend-schedule.js';

export interface TenantMaintenance {
  api: Pick<LongTermMemories, 'tend' | 'runs' | 'run' | 'approve' | 'reject'>;
  close(): Promise<void>;
}

const HOUR_MS = 3_600_000;

export function tenantMaintenance(parts: Pick<EngineParts, 'repositories' | 'settings' | 'now' | 'clock' | 'newId' | 'onBackgroundError'>): TenantMaintenance {
  const { repositories, settings } = parts;
  const maintenance: MaintenanceParts = {
    repository: repositories.longTerm,
    atomically: (work) => repositories.transaction((inside) => work(inside.longTerm)),
    sessionFacts: (sessionId) => repositories.facts.list({ sessionId }),
    agents: LOCAL_AGENTS,
    now: parts.now,
    newId: parts.newId,
    settings: { refineTagsAbove: settings.refineTagsAbove, tagRefinement: settings.tagRefinement },
  };
  const lock = new KeyedMutex();
  const serially = <T>(work: () => Promise<T>): Promise<T> => lock.run('maintenance', work);
  const api = maintenanceApi(maintenance, serially);
  if (settings.tendEveryHours <= 0) return { api, close: () => Promise.resolve() };
  const schedule = new TendSchedule({
    everyMs: settings.tendEveryHours * HOUR_MS,
    tend: () => serially(() => runMaintenance(maintenance, {}, 'schedule')),
    lastRunAt: async () => (await repositories.longTerm.runs({ limit: 1 }))[0]?.startedAt ?? null,
    hasMemories: async () => (await repositories.longTerm.count()) > 0,
    now: parts.clock,
    onError: (error) => parts.onBackgroundError?.(error),
  });
  schedule.start();
  return { api, close: () => schedule.close() };
}

/**
 * The LoCoMo evaluation run: every conversation of a dataset replayed and scored (ER@B with the credit rule,
 * answer containment, budget compliance) for the engine and both baselines, at every budget.
 * Conversations are independent, so they run in worker threads, one per core, when the built JavaScript is
 * available; otherwise (tests on the TypeScript sources, or `concurrency: 1`) they run in this thread.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { StrataError, type StrataErrorCode } from '../../core/errors.js';
import type { LocomoDataset, LocomoSample } from './dataset.js';
import { evaluateConversation, SYSTEMS, type ConversationResult, type EvaluateSettings, type RecordedStats } from './evaluate.js';
import { aggregate, budgetCompliance, tokenUsage, type ResultRow, type TokenUsage } from './metrics.js';
import { replayTurns } from './replay.js';
import type { WorkerReply, WorkerTask } from './worker.js';

export const DEFAULT_BUDGETS: readonly number[] = [1000, 2000, 4000, 8000];

export interface LocomoRunOptions extends EvaluateSettings {
  dataset: LocomoDataset;
  /** Conversations evaluated at once (default 1; worker threads are used when above 1 and available). */
  concurrency?: number;
  /** Overall progress in work units (a replayed turn or an assembled question-budget pair). */
  onProgress?: (progress: LocomoProgress) => void;
}

/** How far a run is, in work units: every replayed turn and every assembled question-budget pair. */
export interface LocomoProgress {
  done: number;
  total: number;
  sampleId: string;
  phase: 'replay' | 'assemble';
}

export interface SystemCompliance {
  system: string;
  packages: number;
  compliance: number;
  meanFill: number;
}

export interface LocomoRunResult {
  numbering: 'locomo-paper';
  manager: EvaluateSettings['manager'];
  tokenizer: EvaluateSettings['tokenizer'];
  budgets: number[];
  /** Share of all packages (engine and baselines) within their budget. */
  budgetCompliance: number;
  compliance: SystemCompliance[];
  results: ResultRow[];
  /** Rendered tokens of the packages per system and budget (mean, largest, mean fill). */
  tokens: TokenUsage[];
  conversations: Array<Omit<ConversationResult, 'scores' | 'recorded'>>;
  /** Summed over conversations (recorded manager only). */
  recorded: RecordedStats | null;
  /** Worker threads used (1: this thread). */
  threads: number;
  elapsedMs: number;
}

function workerUrl(): URL | null {
  const url = new URL('./worker.js', import.meta.url);
  if (!import.meta.url.endsWith('.js') || url.protocol !== 'file:') return null;
  return existsSync(fileURLToPath(url)) ? url : null;
}

function addCounts(target: Record<string, number>, source: Readonly<Record<string, number>>): void {
  for (const [key, value] of Object.entries(source)) target[key] = (target[key] ?? 0) + value;
}

function sumRecorded(results: readonly ConversationResult[]): RecordedStats | null {
  const stats = results.flatMap((result) => (result.recorded === null ? [] : [result.recorded]));
  if (stats.length === 0) return null;
  const total: RecordedStats = {
    proposed: { observations: 0, sessionSummaries: 0 },
    added: { observations: 0, sessionSummaries: 0 },
    rejected: { observations: {}, sessionSummaries: {} },
    merged: 0,
    ungroundedOnlyForSpeakerNames: 0,
    sessionSummariesGroundedInSession: 0,
    skippedObservations: 0,
  };
  for (const entry of stats) {
    total.proposed.observations += entry.proposed.observations;
    total.proposed.sessionSummaries += entry.proposed.sessionSummaries;
    total.added.observations += entry.added.observations;
    total.added.sessionSummaries += entry.added.sessionSummaries;
    addCounts(total.rejected.observations, entry.rejected.observations);
    addCounts(total.rejected.sessionSummaries, entry.rejected.sessionSummaries);
    total.merged += entry.merged;
    total.ungroundedOnlyForSpeakerNames += entry.ungroundedOnlyForSpeakerNames;
    total.sessionSummariesGroundedInSession += entry.sessionSummariesGroundedInSession;
    total.skippedObservations += entry.skippedObservations;
  }
  return total;
}

/** Evaluate the samples on worker threads, at most `threads` at once; results in sample order. */
async function inWorkers(
  url: URL,
  samples: readonly LocomoSample[],
  settings: EvaluateSettings,
  threads: number,
  progress: (sampleId: string, phase: 'replay' | 'assemble', done: number) => void,
): Promise<ConversationResult[]> {
  const results: Array<ConversationResult | undefined> = samples.map(() => undefined);
  let next = 0;
  const runOne = (worker: Worker, index: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const sample = samples[index];
      if (sample === undefined) {
        resolve();
        return;
      }
      const onMessage = (reply: WorkerReply): void => {
        if (reply.type === 'progress') {
          progress(reply.sampleId, reply.phase, reply.done);
          return;
        }
        worker.off('message', onMessage);
        worker.off('error', onError);
        if (reply.type === 'result') {
          results[index] = reply.result;
          resolve();
        } else {
          reject(
            reply.code === null
              ? new Error(`LoCoMo sample ${sample.sampleId}: ${reply.message}`)
              : new StrataError(reply.code as StrataErrorCode, `LoCoMo sample ${sample.sampleId}: ${reply.message}`),
          );
        }
      };
      const onError = (error: Error): void => {
        worker.off('message', onMessage);
        reject(error);
      };
      worker.on('message', onMessage);
      worker.once('error', onError);
      const task: WorkerTask = { sample, settings };
      worker.postMessage(task);
    });
  const lane = async (): Promise<void> => {
    const worker = new Worker(url);
    try {
      while (next < samples.length) {
        const index = next;
        next += 1;
        await runOne(worker, index);
      }
    } finally {
      await worker.terminate();
    }
  };
  await Promise.all(Array.from({ length: Math.min(threads, samples.length) }, lane));
  return results.map((result, index) => {
    if (result === undefined) throw new Error(`LoCoMo sample ${samples[index]?.sampleId ?? index} was not evaluated.`);
    return result;
  });
}

/** Run the evaluation over every sample of the dataset. */
export async function runLocomo(options: LocomoRunOptions): Promise<LocomoRunResult> {
  const start = performance.now();
  const { dataset, onProgress } = options;
  const settings: EvaluateSettings = {
    budgets: [...options.budgets],
    manager: options.manager,
    tokenizer: options.tokenizer,
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.configFile === undefined ? {} : { configFile: options.configFile }),
    ...(options.database === undefined ? {} : { database: options.database }),
  };
  if (settings.budgets.length === 0) throw new StrataError('INVALID_INPUT', 'Give at least one budget.');
  for (const budget of settings.budgets) {
    if (!Number.isSafeInteger(budget) || budget < 1) throw new StrataError('INVALID_INPUT', `A budget must be a whole number of tokens ≥ 1 (got ${budget}).`);
  }

  // Progress in work units: every replayed turn and every assembled question-budget pair.
  const units = new Map(dataset.samples.map((sample) => [sample.sampleId, { turns: replayTurns(sample).length, replay: 0, assemble: 0 }]));
  const total = [...units.values()].reduce((sum, unit) => sum + unit.turns, 0) + dataset.samples.reduce((sum, sample) => sum + sample.qa.length * settings.budgets.length, 0);
  let done = 0;
  const progress = (sampleId: string, phase: 'replay' | 'assemble', value: number): void => {
    const unit = units.get(sampleId);
    if (unit === undefined) return;
    done += value - unit[phase];
    unit[phase] = value;
    onProgress?.({ done, total, sampleId, phase });
  };

  const url = workerUrl();
  const threads = url === null ? 1 : Math.max(1, Math.min(Math.floor(options.concurrency ?? 1), dataset.samples.length));
  let results: ConversationResult[];
  if (url !== null && threads > 1) {
    results = await inWorkers(url, dataset.samples, settings, threads, progress);
  } else {
    results = [];
    for (const sample of dataset.samples) {
      results.push(await evaluateConversation(sample, settings, ({ phase, done: value }) => progress(sample.sampleId, phase, value)));
    }
  }

  const scores = results.flatMap((result) => result.scores);
  const compliance = SYSTEMS.map((system) => {
    const packages = scores.filter((score) => score.system === system).map((score) => ({ tokens: score.tokens, budget: score.budget }));
    return { system, packages: packages.length, ...budgetCompliance(packages) };
  });
  return {
    numbering: 'locomo-paper',
    manager: settings.manager,
    tokenizer: settings.tokenizer,
    budgets: settings.budgets,
    budgetCompliance: budgetCompliance(scores.map((score) => ({ tokens: score.tokens, budget: score.budget }))).compliance,
    compliance,
    results: aggregate(scores),
    tokens: tokenUsage(scores),
    conversations: results.map(({ scores: _scores, recorded: _recorded, ...rest }) => rest),
    recorded: sumRecorded(results),
    threads: url !== null && threads > 1 ? threads : 1,
    elapsedMs: performance.now() - start,
  };
}

/**
 * Worker thread of `runLocomo`: evaluates the conversations it is sent, one at a time, and posts
 * progress and results back. Only runs from the built JavaScript (see `runLocomo`).
 */
import { parentPort } from 'node:worker_threads';
import { isStrataError } from '../../core/errors.js';
import type { LocomoSample } from './dataset.js';
import { evaluateConversation, type EvaluateSettings } from './evaluate.js';

export interface WorkerTask {
  sample: LocomoSample;
  settings: EvaluateSettings;
}

export type WorkerReply =
  | { type: 'progress'; sampleId: string; phase: 'replay' | 'assemble'; done: number; total: number }
  | { type: 'result'; result: Awaited<ReturnType<typeof evaluateConversation>> }
  | { type: 'error'; message: string; code: string | null };

const port = parentPort;
if (port !== null) {
  port.on('message', (task: WorkerTask) => {
    const post = (reply: WorkerReply): void => port.postMessage(reply);
    evaluateConversation(task.sample, task.settings, (progress) => post({ type: 'progress', sampleId: task.sample.sampleId, ...progress }))
      .then((result) => post({ type: 'result', result }))
      .catch((error: unknown) => post({ type: 'error', message: error instanceof Error ? error.message : String(error), code: isStrataError(error) ? error.code : null }));
  });
}

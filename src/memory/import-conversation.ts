/**
 * Importing a conversation into a new session: a Strata export as it was (or under new ids), or plain
 * messages, whose turns are stored and remembered batch by batch in a session hidden until the last one
 * (import-batches.ts; with a worker thread for long local imports), their flagged turns queued for retry,
 * consolidated every N turns as recorded turns are.
 */
import { describeValue } from '../core/describe-value.js';
import { StrataError } from '../core/errors.js';
import { stepThrough } from '../core/slices.js';
import type { Session } from '../core/types.js';
import type { EngineParts } from './engine-parts.js';
import { pacedPause } from '../core/event-loop.js';
import type { SessionExport } from './export-schema.js';
import { mostTurns } from './import-size.js';
import { managerWorkerUrl, startManagerPipeline } from './manager-pipeline.js';
import type { ImportOptions, ImportResult } from './memory-api.js';
import { parseJsonText, planningImport, withNewIds } from './session-import.js';
import { checkTitle, isOptions } from './session-input.js';
import type { TurnWork } from './turn-work.js';
import { writeExportBatches, writeImportBatches } from './import-batches.js';

/** Imports at least this long are worth starting a worker thread for (it takes about half a second to load). */
const WORKER_MIN_TURNS = 400;

/** How this memory may import: on a worker thread only when its own local manager writes memory. */
export interface ImportSetup {
  localInCharge: boolean;
  /** The compiled worker script, when not the packaged one. */
  workerScript: URL | undefined;
}

/** Store a Strata export as the session it was: it must not exist here. */
async function importExport(parts: EngineParts, data: SessionExport): Promise<ImportResult> {
  const { repositories, writes } = parts;
  if ((await repositories.sessions.get({ sessionId: data.session.id })) !== null) {
    throw new StrataError('SESSION_EXISTS', `Session "${data.session.id}" already exists here; delete it first or import with newIds (\`strata import --new-ids\`).`);
  }
  await writeExportBatches(parts, data);
  writes.announce({ sessionId: data.session.id, messagesAdded: true });
  return { sessionId: data.session.id, messages: data.messages.length, turns: data.turns.length, skipped: 0 };
}

/** Import a conversation into a new session (see `Sessions.import`). */
export async function importConversation(parts: EngineParts, work: TurnWork, importOptions: ImportOptions, setup: ImportSetup): Promise<ImportResult> {
  const { settings, context, now, newId, lock, logger } = parts;
  const { localInCharge, workerScript } = setup;
  if (!isOptions(importOptions)) {
    throw new StrataError('INVALID_INPUT', `import() takes { data, source?, title?, newIds? } (got ${describeValue(importOptions)}).`);
  }
  if (importOptions.source !== undefined && typeof importOptions.source !== 'string') {
    throw new StrataError('INVALID_INPUT', `The import's source must be text, such as its file name (got ${describeValue(importOptions.source)}).`);
  }
  const source = importOptions.source ?? 'the import';
  const value = typeof importOptions.data === 'string' ? parseJsonText(importOptions.data, source) : importOptions.data;
  // The worker thread takes a while to load: start it before the input is checked and planned.
  const workerUrl = localInCharge && settings.importWorker && mostTurns(value) >= WORKER_MIN_TURNS ? (workerScript ?? managerWorkerUrl()) : null;
  const started = workerUrl === null ? null : startManagerPipeline(workerUrl, context.manager.name);
  try {
    // (Checked a slice at a time: a long conversation's messages take a while to check.)
    const plan = await stepThrough(planningImport(value, { now: now(), maxBytes: settings.maxMessageBytes, source }), pacedPause(settings.readSliceMs));
    if (plan.kind === 'export') {
      const data = importOptions.newIds === true ? withNewIds(plan.data, newId) : plan.data;
      const title = importOptions.title === undefined ? data.session.title : checkTitle(importOptions.title);
      return await importExport(parts, { ...data, session: { ...data.session, title } });
    }
    const title = importOptions.title === undefined ? 'Imported conversation' : checkTitle(importOptions.title);
    const time = now();
    const id = newId();
    const total = plan.turns.length;
    const pipeline = total >= WORKER_MIN_TURNS ? started : null;
    // Fewer turns than the messages promised: the worker is not worth its start.
    if (pipeline === null) await started?.close();
    const session: Session = { id, title, instructions: plan.instructions, createdAt: time, updatedAt: time, messageCount: 0, turnCount: 0, tokenCount: 0 };
    const { queued } = await lock(id, () => writeImportBatches(parts, work, { session, turns: plan.turns, pipeline, onProgress: importOptions.onProgress }));
    // (Turns waiting in the retry queue are consolidated as they land, every N turns, like recorded turns.)
    if (queued) work.scheduleRetries();
    if (pipeline !== null) {
      const details = { sessionId: id, turns: total, workerTurns: pipeline.answered };
      if (pipeline.problem === null) logger.info(details, 'import analysed on a worker thread');
      else logger.warn({ ...details, problem: pipeline.problem }, 'import worker stopped; the turns it had not answered were analysed on the calling thread');
    }
    return { sessionId: id, messages: plan.messageCount, turns: total, skipped: plan.skipped };
  } finally {
    await started?.close();
  }
}

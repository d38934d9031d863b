/**
 * Importing a conversation into a new session: a Strata export as it was (or under new ids), or plain
 * messages, whose turns are stored and then remembered in one transaction (with a worker thread for
 * long local imports), their flagged turns queued for retry, the whole consolidated once.
 */
import { describeValue } from '../core/describe-value.js';
import { StrataError } from '../core/errors.js';
import type { Session } from '../core/types.js';
import type { TenantStore } from '../store/store.js';
import { consolidateAfterTurn } from './consolidation.js';
import type { EngineParts } from './engine-parts.js';
import type { SessionExport } from './export-schema.js';
import { mostTurns } from './import-size.js';
import { managerWorkerUrl, startManagerPipeline } from './manager-pipeline.js';
import type { ImportOptions, ImportResult } from './memory-api.js';
import { parseJsonText, planImport, withNewIds } from './session-import.js';
import { checkTitle, isOptions } from './session-input.js';
import type { TurnWork } from './turn-work.js';
import { waitingTurn } from './turn-order.js';
import { completeTurn, loadMemoryState, runManager, writeDerivedTurns, writeRawTurns, type DerivedTurn, type RawTurn } from './write-path.js';

const IMPORT_CHUNK_TURNS = 200;
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
  await repositories.transaction(async (tx) => {
    await tx.sessions.create({ session: { ...data.session, messageCount: 0, turnCount: 0, tokenCount: 0 } });
    if (data.messages.length > 0) {
      const messages = data.messages.map((message) => ({ ...message, sentAt: message.sentAt === undefined ? message.createdAt : message.sentAt }));
      await tx.messages.append({ sessionId: data.session.id, messages, updatedAt: data.session.updatedAt });
    }
    for (const summary of data.turns) await tx.turns.upsert({ summary });
    if (data.factEvents.length > 0 || data.facts.length > 0) {
      await tx.facts.apply({ sessionId: data.session.id, events: data.factEvents, upserts: data.facts, removedIds: [] });
    }
    for (const artifact of data.artifacts) await tx.artifacts.restore({ artifact });
  });
  writes.announce({ sessionId: data.session.id });
  return { sessionId: data.session.id, messages: data.messages.length, turns: data.turns.length, skipped: 0 };
}

/** Import a conversation into a new session (see `Sessions.import`). */
export async function importConversation(parts: EngineParts, work: TurnWork, importOptions: ImportOptions, setup: ImportSetup): Promise<ImportResult> {
  const { settings, repositories, manager, context, now, newId, lock, gate, logger, onBackgroundError } = parts;
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
    const plan = planImport(value, { now: now(), maxBytes: settings.maxMessageBytes, source });
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
    let queued = false;
    // Fewer turns than the messages promised: the worker is not worth its start.
    if (pipeline === null) await started?.close();
    await lock(id, () =>
      repositories.transaction(async (tx) => {
        await tx.sessions.create({
          session: { id, title, instructions: plan.instructions, createdAt: time, updatedAt: time, messageCount: 0, turnCount: 0, tokenCount: 0 },
        });
        const session = await requireSessionIn(tx, id);
        const state = await loadMemoryState(tx, id);
        // Store every raw turn first; with a worker, the manager analyses them meanwhile.
        pipeline?.seed(state);
        const raws: RawTurn[] = [];
        for (let start = 0; start < total; start += IMPORT_CHUNK_TURNS) {
          // One transaction holds the whole import, so no turn can be left pending: skip the pending rows.
          const raw = await writeRawTurns(tx, session, plan.turns.slice(start, start + IMPORT_CHUNK_TURNS), context, { pendingSummaries: false });
          pipeline?.submit(raw);
          raws.push(...raw);
        }
        // A turn queued for retry holds the turns after it back, so they change the facts in order (turn-order.ts).
        let blocker: number | null = null;
        let blockerDue: string | null = null;
        for (let start = 0; start < raws.length; start += IMPORT_CHUNK_TURNS) {
          const derived: DerivedTurn[] = [];
          for (const turn of raws.slice(start, start + IMPORT_CHUNK_TURNS)) {
            if (blocker !== null) {
              derived.push(waitingTurn(turn, blocker, context));
              importOptions.onProgress?.({ done: start + derived.length, total });
              continue;
            }
            const outcome = (await pipeline?.outcome(turn.turn)) ?? (await runManager(turn, state, context));
            const done = completeTurn(turn, state, outcome, context);
            if (done.retry !== null) blocker = done.turn;
            derived.push(done);
            importOptions.onProgress?.({ done: start + derived.length, total });
          }
          await writeDerivedTurns(tx, derived);
          for (const turn of derived) {
            if (turn.retry === null) continue;
            blockerDue = (await work.queueRetry(tx, turn, blockerDue ?? undefined)) ?? blockerDue;
            queued = true;
          }
          // Let timers (a progress bar, a server's other requests) run between chunks.
          await new Promise((resolve) => setImmediate(resolve));
        }
      }),
    );
    if (queued) work.scheduleRetries();
    // An import of at least `consolidateEveryTurns` turns is consolidated once, at its last turn.
    if (settings.consolidateEveryTurns > 0 && total >= settings.consolidateEveryTurns) {
      await gate.enqueue(id, () => consolidateAfterTurn({ repositories, manager, sessionId: id, turn: total, everyTurns: 1, now, newId, onError: onBackgroundError }));
    }
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

async function requireSessionIn(repositories: Pick<TenantStore, 'sessions'>, sessionId: string): Promise<Session> {
  const session = await repositories.sessions.get({ sessionId });
  if (session === null) throw new StrataError('STORE_FAILURE', `Session ${sessionId} vanished during the import.`);
  return session;
}

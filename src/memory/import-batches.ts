/**
 * Writing an imported conversation in batches. The session is created hidden (`importUntil`); each batch
 * of turns is derived outside any transaction and then stored, raw messages and memory together, in one
 * short transaction, so another writer (of this process or another) waits for one batch at most, never
 * for the whole import. The last transaction queues the flagged turns for retry and shows the session.
 * An import that fails deletes its session; one whose process died stays hidden and is removed once its
 * deadline has passed (`removeAbandonedImports`, on the tenant's first use).
 */
import { StrataError } from '../core/errors.js';
import type { Session } from '../core/types.js';
import type { TenantRepositories } from '../store/store.js';
import type { EngineParts } from './engine-parts.js';
import type { SessionExport } from './export-schema.js';
import type { ManagerPipeline } from './manager-pipeline.js';
import type { ImportOptions } from './memory-api.js';
import type { CheckedMessage } from './message-input.js';
import type { TurnWork } from './turn-work.js';
import { waitingTurn } from './turn-order.js';
import { completeTurn, loadMemoryState, rawTurnsAfter, runManager, writeDerivedTurns, type DerivedTurn, type RawTurn } from './write-path.js';

/** Turns per batch: about 400 messages, a transaction of some tens of milliseconds. */
const BATCH_TURNS = 200;

/** How long an import may go without finishing a batch before it counts as abandoned. */
export const IMPORT_LEASE_MS = 10 * 60_000;

/** Longest run of derivation between two turns of the event loop, in ms. */
const YIELD_EVERY_MS = 20;

/** Let the event loop turn once (timers, I/O); gives the time after. */
async function nextTick(): Promise<number> {
  await new Promise((resolve) => setImmediate(resolve));
  return performance.now();
}

export interface ImportBatchesInput {
  session: Session;
  turns: readonly (readonly CheckedMessage[])[];
  /** The worker thread analysing the turns ahead, when the import is long enough for one. */
  pipeline: ManagerPipeline | null;
  onProgress: ImportOptions['onProgress'];
}

/** A new session, hidden until `finishImport`, with its first deadline; the deadline function for the next ones. */
async function createHidden(parts: EngineParts, session: Session): Promise<() => string> {
  const deadline = (): string => new Date(Date.parse(parts.now()) + IMPORT_LEASE_MS).toISOString();
  await parts.repositories.sessions.create({ session, importUntil: deadline() });
  return deadline;
}

/** Keep an import's session alive for another lease (inside a batch's transaction), or stop: it was removed as abandoned. */
async function renew(tx: TenantRepositories, sessionId: string, until: string): Promise<void> {
  if (!(await tx.sessions.renewImport({ sessionId, until }))) {
    throw new StrataError('STORE_FAILURE', `The import into session ${sessionId} was removed while it ran, as abandoned (no batch for ${IMPORT_LEASE_MS / 60_000} minutes); import the file again.`);
  }
}

/** Store a Strata export as the session it was, messages batch by batch, the rest with the last batch. */
export async function writeExportBatches(parts: EngineParts, data: SessionExport): Promise<void> {
  const { repositories } = parts;
  const sessionId = data.session.id;
  const deadline = await createHidden(parts, { ...data.session, messageCount: 0, turnCount: 0, tokenCount: 0 });
  try {
    const messages = data.messages.map((message) => ({ ...message, sentAt: message.sentAt === undefined ? message.createdAt : message.sentAt }));
    for (let start = 0; start < messages.length; start += BATCH_TURNS * 2) {
      await repositories.transaction(async (tx) => {
        await tx.messages.append({ sessionId, messages: messages.slice(start, start + BATCH_TURNS * 2), updatedAt: data.session.updatedAt });
        await renew(tx, sessionId, deadline());
      });
      await nextTick();
    }
    await repositories.transaction(async (tx) => {
      for (const summary of data.turns) await tx.turns.upsert({ summary });
      if (data.factEvents.length > 0 || data.facts.length > 0) {
        await tx.facts.apply({ sessionId, events: data.factEvents, upserts: data.facts, removedIds: [] });
      }
      for (const artifact of data.artifacts) await tx.artifacts.restore({ artifact });
      await tx.sessions.finishImport({ sessionId, updatedAt: data.session.updatedAt });
    });
  } catch (error) {
    await repositories.sessions.delete({ sessionId }).catch((cleanup: unknown) => parts.onBackgroundError?.(cleanup));
    throw error;
  }
}

/** Store the session's turns and their memory batch by batch; says whether turns were queued for retry. */
export async function writeImportBatches(parts: EngineParts, work: TurnWork, input: ImportBatchesInput): Promise<{ queued: boolean }> {
  const { repositories, context, now } = parts;
  const { session, pipeline } = input;
  const sessionId = session.id;
  const deadline = await createHidden(parts, session);
  try {
    const state = await loadMemoryState(repositories, sessionId);
    const raws = rawTurnsAfter({ turn: 0, position: -1 }, session, input.turns, context);
    // With a worker, the manager analyses every turn meanwhile.
    pipeline?.seed(state);
    pipeline?.submit(raws);
    const flagged: DerivedTurn[] = [];
    let yielded = performance.now();
    // A turn queued for retry holds the turns after it back, so they change the facts in order (turn-order.ts).
    let blocker: number | null = null;
    for (let start = 0; start < raws.length; start += BATCH_TURNS) {
      const batch = raws.slice(start, start + BATCH_TURNS);
      const derived: DerivedTurn[] = [];
      for (const turn of batch) {
        if (blocker === null) {
          const outcome = (await pipeline?.outcome(turn.turn)) ?? (await runManager(turn, state, context));
          derived.push(completeTurn(turn, state, outcome, context));
          if (derived.at(-1)?.retry != null) blocker = turn.turn;
        } else {
          derived.push(waitingTurn(turn, blocker, context));
        }
        input.onProgress?.({ done: start + derived.length, total: raws.length });
        // Deriving a turn is mostly synchronous: give timers and I/O (a server's requests) their turn often.
        if (performance.now() - yielded > YIELD_EVERY_MS) yielded = await nextTick();
      }
      await repositories.transaction(async (tx) => {
        await tx.messages.append({ sessionId, messages: batch.flatMap((turn: RawTurn) => turn.messages), updatedAt: now() });
        await writeDerivedTurns(tx, derived);
        await renew(tx, sessionId, deadline());
      });
      flagged.push(...derived.filter((turn) => turn.retry !== null));
      // Let other writers, timers and I/O run between batches.
      yielded = await nextTick();
    }
    await repositories.transaction(async (tx) => {
      let due: string | undefined;
      for (const turn of flagged) due = (await work.queueRetry(tx, turn, due)) ?? due;
      await tx.sessions.finishImport({ sessionId, updatedAt: now() });
    });
    return { queued: flagged.length > 0 };
  } catch (error) {
    // The session is hidden: a failed delete leaves it to removeAbandonedImports once its deadline passes.
    await repositories.sessions.delete({ sessionId }).catch((cleanup: unknown) => parts.onBackgroundError?.(cleanup));
    throw error;
  }
}

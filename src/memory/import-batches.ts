/**
 * Writing an imported conversation in batches. The session is created hidden (`importUntil`); each batch
 * of turns is derived outside any transaction and then stored, raw messages and memory together, in one
 * short transaction, so another writer (of this process or another) waits for one batch at most, never
 * for the whole import. The last transaction queues the flagged turns for retry and shows the session.
 * An import that fails deletes its session; one whose process died stays hidden and is removed once its
 * deadline has passed (`removeAbandonedImports`, on the tenant's first use and before each import).
 */
import { StrataError, isStrataError } from '../core/errors.js';
import { consolidateState, consolidationSignature, type ConsolidationWrite } from './consolidation.js';
import type { FactEvent, Session } from '../core/types.js';
import type { TenantRepositories } from '../store/store.js';
import type { EngineParts } from './engine-parts.js';
import { countedAhead } from './counted-ahead.js';
import { pacedPause, yieldToEventLoop } from '../core/event-loop.js';
import type { SessionExport } from './export-schema.js';
import type { ManagerPipeline } from './manager-pipeline.js';
import type { ImportOptions } from './memory-api.js';
import type { CheckedMessage } from './message-input.js';
import type { MemoryState } from './memory-state.js';
import { promoteFactEvents } from './promotion.js';
import type { TurnWork } from './turn-work.js';
import { waitingTurn } from './turn-order.js';
import { completeTurn, loadMemoryState, rawTurnsAfter, runManager, writeDerivedTurns, type DerivedTurn, type RawTurn } from './write-path.js';

/** Turns per batch: about 200 messages, a transaction of some tens of milliseconds. */
const BATCH_TURNS = 100;

/** Fact events promoted to long-term memory between two turns of the event loop (see `promoteImported`). */
const PROMOTED_PER_SLICE = 40;

/** How long an import may go without finishing a batch before it counts as abandoned. */
const IMPORT_LEASE_MS = 10 * 60_000;

/** Longest run of derivation between two turns of the event loop, in ms. */
const YIELD_EVERY_MS = 20;

/** Let the event loop turn once (timers, I/O); gives the time after. */
async function nextTick(): Promise<number> {
  await yieldToEventLoop();
  return performance.now();
}

export interface ImportBatchesInput {
  session: Session;
  turns: readonly (readonly CheckedMessage[])[];
  /** The worker thread analysing the turns ahead, when the import is long enough for one. */
  pipeline: ManagerPipeline | null;
  onProgress: ImportOptions['onProgress'];
}

/** How often a running import pushes its deadline on, at the least (a batch of slow model calls takes long). */
const RENEW_EVERY_MS = 60_000;

/** An import's hidden session and how it keeps it: its deadline, renewed often enough that no other process takes it for abandoned. */
interface Lease {
  /** Renew within a transaction that writes a batch. */
  renewIn(tx: TenantRepositories): Promise<void>;
  /** Renew when a minute has passed since the last renewal (between turns, outside any transaction). */
  keep(): Promise<void>;
}

/**
 * A new session, hidden until `finishImport`. Imports a stopped process left behind are removed first;
 * an id still taken by a hidden session says so, rather than failing on the store's constraint.
 */
async function createHidden(parts: EngineParts, session: Session): Promise<Lease> {
  const { repositories, now } = parts;
  const deadline = (): string => new Date(Date.parse(now()) + IMPORT_LEASE_MS).toISOString();
  await repositories.sessions.removeAbandonedImports({ now: now() });
  try {
    await repositories.sessions.create({ session, importUntil: deadline() });
  } catch (error) {
    // (Only a taken id is another import's: a read-only or full database says so itself.)
    if (!isStrataError(error, 'SESSION_EXISTS') || (await repositories.sessions.get({ sessionId: session.id })) !== null) throw error;
    throw new StrataError('SESSION_EXISTS', `Session "${session.id}" is being imported by another run (or one stopped less than ${IMPORT_LEASE_MS / 60_000} minutes ago); try again later, or import with newIds.`, { cause: error });
  }
  let renewed = Date.parse(now());
  const renewIn = async (target: TenantRepositories): Promise<void> => {
    await renew(target, session.id, deadline());
    renewed = Date.parse(now());
  };
  return {
    renewIn,
    keep: async () => {
      if (Date.parse(now()) - renewed >= RENEW_EVERY_MS) await renewIn(repositories);
    },
  };
}

/** Keep an import's session alive for another lease, or stop: it was removed as abandoned. */
async function renew(repositories: TenantRepositories, sessionId: string, until: string): Promise<void> {
  if (!(await repositories.sessions.renewImport({ sessionId, until }))) throw removedWhileImporting(sessionId);
}

function removedWhileImporting(sessionId: string): StrataError {
  return new StrataError('STORE_FAILURE', `The import into session ${sessionId} was removed while it ran, as abandoned (no progress for ${IMPORT_LEASE_MS / 60_000} minutes); import the file again.`);
}

/** Store a Strata export as the session it was, messages batch by batch, the rest with the last batch. */
export async function writeExportBatches(parts: EngineParts, data: SessionExport): Promise<void> {
  const { repositories } = parts;
  const sessionId = data.session.id;
  const lease = await createHidden(parts, { ...data.session, messageCount: 0, turnCount: 0, tokenCount: 0 });
  try {
    // (In position order, as a session grows: an export written by another tool may list them otherwise.)
    const messages = data.messages
      .map((message) => ({ ...message, sentAt: message.sentAt === undefined ? message.createdAt : message.sentAt }))
      .sort((a, b) => a.position - b.position);
    for (let start = 0; start < messages.length; start += BATCH_TURNS * 2) {
      await repositories.transaction(async (tx) => {
        await lease.renewIn(tx);
        await tx.messages.append({ sessionId, messages: messages.slice(start, start + BATCH_TURNS * 2), updatedAt: data.session.updatedAt });
      });
      await nextTick();
    }
    await repositories.transaction(async (tx) => {
      for (const summary of data.turns) await tx.turns.upsert({ summary });
      if (data.factEvents.length > 0 || data.facts.length > 0) {
        await tx.facts.apply({ sessionId, events: data.factEvents, upserts: data.facts, removedIds: [] });
      }
      for (const artifact of data.artifacts) await tx.artifacts.restore({ artifact });
      await promoteImported(parts, tx, data.factEvents);
      if (!(await tx.sessions.finishImport({ sessionId, updatedAt: data.session.updatedAt }))) throw removedWhileImporting(sessionId);
    });
  } catch (error) {
    await repositories.sessions.delete({ sessionId }).catch((cleanup: unknown) => parts.onBackgroundError?.(cleanup));
    throw error;
  }
}

/**
 * An imported session's standing facts reach long-term memory once the session is whole, in the order
 * they were established, in the transaction that shows the session (all or nothing, and before any of
 * its turns is retried). A long conversation's events take seconds to promote: the event loop turns
 * between slices of them (the store holds other work back until the transaction ends).
 */
async function promoteImported(parts: EngineParts, tx: TenantRepositories, events: readonly FactEvent[]): Promise<void> {
  if (!parts.settings.promote) return;
  const context = { now: parts.now, newId: parts.newId };
  for (let start = 0; start < events.length; start += PROMOTED_PER_SLICE) {
    if (start > 0) await yieldToEventLoop();
    await promoteFactEvents(tx, events.slice(start, start + PROMOTED_PER_SLICE), context);
  }
}

/** Turns counted and numbered before they are stored, per slice (each sent on to the worker as it is made). */
const PREPARED_TURNS = 200;

/** The raw turns an import stores: its messages counted, numbered and given ids, with the event loop let in between slices. */
async function rawTurnsOf(parts: EngineParts, session: Session, turns: readonly (readonly CheckedMessage[])[], pipeline: ManagerPipeline | null): Promise<RawTurn[]> {
  const pause = pacedPause(parts.settings.readSliceMs);
  const raws: RawTurn[] = [];
  let last = { turn: 0, position: -1 };
  for (let start = 0; start < turns.length; start += PREPARED_TURNS) {
    const counted: CheckedMessage[][] = [];
    for (const turn of turns.slice(start, start + PREPARED_TURNS)) counted.push(await countedAhead(turn, parts.context.tokenizer, pause));
    const slice = rawTurnsAfter(last, session, counted, parts.context);
    pipeline?.submit(slice);
    raws.push(...slice);
    const end = slice.at(-1);
    if (end !== undefined) last = { turn: end.turn, position: end.messages.at(-1)?.position ?? last.position };
    await pause();
  }
  return raws;
}

/** Consolidate an imported session's facts after a turn when due; the worker, when there is one, must have done the same. */
async function consolidateImported(parts: EngineParts, sessionId: string, turn: number, state: MemoryState, pipeline: ManagerPipeline | null): Promise<ConsolidationWrite | null> {
  const { manager, now, newId } = parts;
  let write: ConsolidationWrite | null;
  try {
    write = await consolidateState({ manager, sessionId, turn, everyTurns: parts.settings.consolidateEveryTurns, state, now, newId });
  } catch (error) {
    // As after a recorded turn: the document stays as it was and the failure is reported, the import goes on
    // (without the worker, whose copy did consolidate).
    parts.onBackgroundError?.(error);
    pipeline?.stop(`the engine could not consolidate after turn ${turn}`);
    return null;
  }
  pipeline?.confirm(turn, consolidationSignature(write));
  return write;
}

/** Store the session's turns and their memory batch by batch; says whether turns were queued for retry. */
export async function writeImportBatches(parts: EngineParts, work: TurnWork, input: ImportBatchesInput): Promise<{ queued: boolean }> {
  const { repositories, context, now } = parts;
  const { session, pipeline } = input;
  const sessionId = session.id;
  const lease = await createHidden(parts, session);
  try {
    const state = await loadMemoryState(repositories, sessionId);
    // With a worker, the manager analyses every turn meanwhile.
    pipeline?.seed(state, parts.settings.consolidateEveryTurns);
    const raws = await rawTurnsOf(parts, session, input.turns, pipeline);
    const flagged: DerivedTurn[] = [];
    // The events the batches write, in the order they write them: what the import establishes.
    const established: FactEvent[] = [];
    let yielded = performance.now();
    // A turn queued for retry holds the turns after it back, so they change the facts in order (turn-order.ts).
    let blocker: number | null = null;
    for (let start = 0; start < raws.length; start += BATCH_TURNS) {
      const batch = raws.slice(start, start + BATCH_TURNS);
      const derived: DerivedTurn[] = [];
      for (const turn of batch) {
        if (blocker === null) {
          const outcome = (await pipeline?.outcome(turn.turn)) ?? (await runManager(turn, state, context));
          const done = completeTurn(turn, state, outcome, context);
          derived.push(done);
          if (done.retry !== null) blocker = turn.turn;
          // Consolidated every N turns, as recorded turns are: the import remembers what recording it would.
          else done.consolidation = await consolidateImported(parts, sessionId, turn.turn, state, pipeline);
        } else {
          derived.push(waitingTurn(turn, blocker, context));
        }
        input.onProgress?.({ done: start + derived.length, total: raws.length });
        await lease.keep();
        // Deriving a turn is mostly synchronous: give timers and I/O (a server's requests) their turn often.
        if (performance.now() - yielded > YIELD_EVERY_MS) yielded = await nextTick();
      }
      await repositories.transaction(async (tx) => {
        await lease.renewIn(tx);
        await tx.messages.append({ sessionId, messages: batch.flatMap((turn: RawTurn) => turn.messages), updatedAt: now() });
        await writeDerivedTurns(tx, derived);
      });
      flagged.push(...derived.filter((turn) => turn.retry !== null));
      for (const turn of derived) established.push(...turn.events, ...(turn.consolidation?.events ?? []));
      // Let other writers, timers and I/O run between batches.
      yielded = await nextTick();
    }
    await repositories.transaction(async (tx) => {
      let due: string | undefined;
      if (!(await tx.sessions.finishImport({ sessionId, updatedAt: now() }))) throw removedWhileImporting(sessionId);
      await promoteImported(parts, tx, established);
      for (const turn of flagged) due = (await work.queueRetry(tx, turn, due)) ?? due;
    });
    return { queued: flagged.length > 0 };
  } catch (error) {
    // The session is hidden: a failed delete leaves it to removeAbandonedImports once its deadline passes.
    await repositories.sessions.delete({ sessionId }).catch((cleanup: unknown) => parts.onBackgroundError?.(cleanup));
    throw error;
  }
}

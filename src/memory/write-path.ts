import { StrataError } from '../core/errors.js';
import { mapPacked } from '../core/packed-map.js';
import { limitWords } from '../core/text.js';
import { toolUseOf } from '../core/tool-calls.js';
import type { ArtifactVersion, DetailRequestRecord, Fact, FactEvent, Message, Session, TurnStatus, TurnSummary } from '../core/types.js';
import type { KnownArtifact, MemoryManager, TurnMemory, TurnUsage } from '../managers/memory-manager.js';
import { toolUseTokens, type Tokenizer } from '../providers/tokenizer/tokenizer.js';
import type { TenantRepositories, TierUpdate } from '../store/store.js';
import { advanceState, turnRequest, type MemoryState, type RawTurn } from './memory-state.js';
import type { CheckedMessage } from './message-input.js';
import { turnMemorySchema } from './turn-memory-schema.js';

export { advanceState, turnRequest, type MemoryState, type RawTurn } from './memory-state.js';

/** What the write path needs, injected. */
export interface WriteContext {
  tokenizer: Tokenizer;
  manager: MemoryManager;
  now: () => string;
  newId: () => string;
}

/** Everything derived from one turn, ready to persist. */
export interface DerivedTurn {
  sessionId: string;
  turn: number;
  status: TurnStatus;
  summary: TurnSummary;
  tierUpdates: TierUpdate[];
  events: FactEvent[];
  upserts: Fact[];
  removedIds: string[];
  artifacts: Array<{ artifactId: string; name: string; kind: KnownArtifact['kind']; language: string | null; version: Omit<ArtifactVersion, 'artifactId' | 'version'> }>;
  /** Why the memory manager's work was not used, when it was not. */
  failure: StrataError | null;
  /** Set when the manager fell back but may succeed later: the turn joins the retry queue. */
  retry: { reason: string; message: string } | null;
  /** Model calls and tokens the turn cost, when its manager reports them. */
  usage: TurnUsage | null;
  /**
   * The session's last fact-event sequence when the turn was derived: its fact changes are written only
   * while that is still the last one (another process may have changed the facts meanwhile). Null when
   * the turn changes no facts.
   */
  basedOn?: number | null;
  /** A consolidation of the facts after the turn (an import's, every N turns), written after the turn's own changes. */
  consolidation?: FactChanges | null;
}

/** A turn's (or its consolidation's) fact events and the document changes they make. */
export type FactChanges = Pick<DerivedTurn, 'events' | 'upserts' | 'removedIds'>;

/** A turn's fact changes were built on facts another writer has changed since: derive it again. */
function staleFacts(sessionId: string, turn: number): StrataError {
  return new StrataError('STORE_FAILURE', `The facts of session ${sessionId} changed while turn ${turn} was derived; derive it again.`, { details: { sessionId, turn, staleFacts: true } });
}

export function isStaleFacts(error: unknown): boolean {
  return error instanceof StrataError && error.details.staleFacts === true;
}

const USER_SUMMARY_WORDS = 25;
const ASSISTANT_SUMMARY_WORDS = 30;

/**
 * Store the raw messages of consecutive turns (tier 3 only) with a pending turn-log entry each, so a turn
 * whose memory is never written is found and derived later.
 */
export async function writeRawTurns(
  repositories: TenantRepositories,
  session: Session,
  turns: readonly (readonly CheckedMessage[])[],
  context: WriteContext,
  options: { staleMemory?: boolean; detailRequests?: DetailRequestRecord[] } = {},
): Promise<RawTurn[]> {
  const stored = rawTurnsAfter(await repositories.messages.last({ sessionId: session.id }), session, turns, context);
  const all = stored.flatMap((turn) => turn.messages);
  if (all.length === 0) return stored;
  await repositories.messages.append({ sessionId: session.id, messages: all, updatedAt: context.now() });
  for (const turn of stored) {
    await repositories.turns.upsert({
      summary: {
        sessionId: session.id,
        turn: turn.turn,
        messageIds: mapPacked(turn.messages, (message) => message.id),
        userSummary: '',
        assistantSummary: '',
        depth: 'short',
        status: 'pending-retry',
        windowExtension: 0,
        tokens: 0,
        createdAt: turn.messages[0]?.createdAt ?? context.now(),
        ...(options.staleMemory === true ? { staleMemory: true } : {}),
        ...(options.detailRequests !== undefined && options.detailRequests.length > 0 ? { detailRequests: options.detailRequests } : {}),
      },
    });
  }
  return stored;
}

/** The raw turns `turns` become after the session's `last` turn and position: ids, positions and tier-3 counts, nothing stored. */
export function rawTurnsAfter(
  last: { turn: number; position: number },
  session: Pick<Session, 'id'>,
  turns: readonly (readonly CheckedMessage[])[],
  context: Pick<WriteContext, 'tokenizer' | 'newId'>,
): RawTurn[] {
  let position = last.position;
  return mapPacked(turns, (checked, index) => ({
    turn: last.turn + index + 1,
    countedHere: true,
    messages: mapPacked(checked, (message) => {
      position += 1;
      return {
        id: message.id ?? context.newId(),
        sessionId: session.id,
        turn: last.turn + index + 1,
        position,
        role: message.role,
        speaker: message.speaker,
        content: message.content,
        tier1: '',
        tier2: '',
        tokens: { tier1: 0, tier2: 0, tier3: message.tier3Tokens ?? context.tokenizer.count(message.content) + toolUseTokens(message, context.tokenizer.count) },
        requiredTier: 3,
        createdAt: message.createdAt,
        sentAt: message.sentAt,
        externalId: message.externalId,
        ...toolUseOf(message),
      };
    }),
  }));
}

/** Read the memory state a new turn builds on; `knownSequence` is the last fact-event sequence when the caller has just read it. */
export async function loadMemoryState(repositories: TenantRepositories, sessionId: string, knownSequence?: number): Promise<MemoryState> {
  const [facts, lastSequence, artifacts] = await Promise.all([
    repositories.facts.list({ sessionId }),
    knownSequence ?? repositories.facts.lastSequence({ sessionId }),
    repositories.artifacts.listLatest({ sessionId }),
  ]);
  return {
    facts,
    nextSequence: lastSequence + 1,
    artifacts: new Map(
      artifacts.map((artifact) => [
        artifact.name,
        { id: artifact.id, name: artifact.name, kind: artifact.kind, language: artifact.language, latest: artifact.versions.at(-1)?.content ?? '' },
      ]),
    ),
  };
}

function sideText(messages: readonly Message[], role: Message['role']): string {
  return messages
    .filter((message) => message.role === role)
    .map((message) => message.content)
    .join('\n');
}

/** The turn-log entry used when the memory manager's work is unavailable: the raw exchange, cut to the word limits. */
export function fallbackSummary(raw: RawTurn, status: TurnStatus, context: Pick<WriteContext, 'tokenizer' | 'now'>): TurnSummary {
  const userSummary = limitWords(sideText(raw.messages, 'user'), USER_SUMMARY_WORDS);
  const assistantSummary = limitWords(sideText(raw.messages, 'assistant'), ASSISTANT_SUMMARY_WORDS);
  return {
    sessionId: raw.messages[0]?.sessionId ?? '',
    turn: raw.turn,
    messageIds: mapPacked(raw.messages, (message) => message.id),
    userSummary,
    assistantSummary,
    depth: 'short',
    status,
    windowExtension: 0,
    tokens: context.tokenizer.count(userSummary) + context.tokenizer.count(assistantSummary),
    createdAt: raw.messages[0]?.createdAt ?? context.now(),
  };
}

/** The manager's validated result for a turn, or why there is none. */
export type ManagerOutcome = { memory: TurnMemory; failure?: undefined } | { memory?: undefined; failure: StrataError };

/** Parse a manager's answer at the boundary: only a result matching the schema is ever used. */
export function parseManagerOutput(output: unknown, managerName: string): ManagerOutcome {
  const parsed = turnMemorySchema.safeParse(output);
  if (parsed.success) return { memory: parsed.data };
  return {
    failure: new StrataError(
      'MEMORY_MANAGER_FAILURE',
      `The ${managerName} memory manager returned an invalid result: ${parsed.error.issues[0]?.message ?? 'unknown problem'}.`,
    ),
  };
}

/** A manager's failure as a StrataError; `doing` says what failed ("failed on turn 3" by default). */
export function managerFailure(error: unknown, managerName: string, turn: number, doing = `failed on turn ${turn}`): StrataError {
  return error instanceof StrataError
    ? error
    : new StrataError('MEMORY_MANAGER_FAILURE', `The ${managerName} memory manager ${doing}: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
}

/** Ask the manager about one stored turn; failures become outcomes, never exceptions. */
export async function runManager(raw: RawTurn, state: MemoryState, context: WriteContext): Promise<ManagerOutcome> {
  try {
    return parseManagerOutput(await context.manager.processTurn(turnRequest(raw, state, context.now())), context.manager.name);
  } catch (error) {
    return { failure: managerFailure(error, context.manager.name, raw.turn) };
  }
}

/**
 * Token counts for one turn's texts, each counted once: a tier is often the message itself (counted
 * when it was stored, unless that was by another tokenizer) and a summary often a tier.
 */
function turnCounter(raw: RawTurn, tokenizer: Tokenizer): (text: string) => number {
  const counts = new Map<string, number>(raw.countedHere === true ? raw.messages.map((message) => [message.content, message.tokens.tier3]) : []);
  return (text) => {
    let count = counts.get(text);
    if (count === undefined) {
      count = tokenizer.count(text);
      counts.set(text, count);
    }
    return count;
  };
}

/**
 * Turn a manager outcome into everything to persist for the turn, advancing the state in place so a run
 * of turns sees each other's facts. A failure gives a flagged raw fallback, never an error.
 */
export function completeTurn(raw: RawTurn, state: MemoryState, outcome: ManagerOutcome, context: WriteContext): DerivedTurn {
  const sessionId = raw.messages[0]?.sessionId ?? '';
  if (outcome.failure !== undefined) {
    return {
      sessionId,
      turn: raw.turn,
      status: 'fallback-raw',
      summary: fallbackSummary(raw, 'fallback-raw', context),
      tierUpdates: [],
      events: [],
      upserts: [],
      removedIds: [],
      artifacts: [],
      failure: outcome.failure,
      retry: null,
      usage: null,
    };
  }
  // A fallback never changes the document, whatever diff came with it.
  const fallback = outcome.memory.fallback;
  const memory = fallback === undefined ? outcome.memory : { ...outcome.memory, diff: { add: [], update: [], remove: [] } };
  const status: TurnStatus = fallback === undefined ? 'summarised' : fallback.retry ? 'pending-retry' : 'fallback-raw';
  const now = context.now();
  const count = turnCounter(raw, context.tokenizer);
  const byId = new Map(memory.messages.map((entry) => [entry.messageId, entry]));
  const tierUpdates: TierUpdate[] = mapPacked(raw.messages, (message) => {
    const entry = byId.get(message.id);
    const tier1 = entry?.tier1.trim() ?? '';
    const tier2 = entry?.tier2.trim() ?? '';
    return {
      messageId: message.id,
      tier1,
      tier2,
      tokens: { tier1: count(tier1), tier2: count(tier2), tier3: message.tokens.tier3 },
      requiredTier: entry?.requiredTier ?? 2,
    };
  });
  const userSummary = limitWords(memory.userSummary, USER_SUMMARY_WORDS);
  const assistantSummary = limitWords(memory.assistantSummary, ASSISTANT_SUMMARY_WORDS);
  const summary: TurnSummary = {
    sessionId,
    turn: raw.turn,
    messageIds: mapPacked(raw.messages, (message) => message.id),
    userSummary,
    assistantSummary,
    depth: memory.depth,
    status,
    windowExtension: memory.windowExtension,
    tokens: count(userSummary) + count(assistantSummary),
    createdAt: raw.messages[0]?.createdAt ?? now,
  };
  const basedOn = state.nextSequence - 1;
  const { applied, drafts } = advanceState(raw, state, memory, { actor: context.manager.name, now, newId: context.newId });
  return {
    sessionId,
    turn: raw.turn,
    status,
    summary,
    tierUpdates,
    events: applied.events,
    upserts: applied.upserted,
    removedIds: applied.removedIds,
    artifacts: mapPacked(drafts, ({ artifactId, draft }) => ({
      artifactId,
      name: draft.name,
      kind: draft.kind,
      language: draft.language,
      version: { turn: raw.turn, messageId: draft.messageId, content: draft.content, tokens: context.tokenizer.count(draft.content), createdAt: now },
    })),
    failure: fallback === undefined ? null : fallbackError(fallback, context.manager.name, raw.turn),
    retry: fallback?.retry === true ? { reason: fallback.reason, message: fallback.message } : null,
    usage: outcome.memory.usage ?? null,
    basedOn,
  };
}

/** The failure behind a manager's fallback, as an error the turn's result can show. */
function fallbackError(fallback: NonNullable<TurnMemory['fallback']>, managerName: string, turn: number): StrataError {
  const next = fallback.retry ? 'it will be retried in the background' : 'the raw exchange stands in for its memory';
  return new StrataError(fallback.code, `The ${managerName} memory manager fell back on turn ${turn} (${fallback.reason}): ${fallback.message} — ${next}.`, {
    details: { reason: fallback.reason, retry: fallback.retry },
  });
}

/** Run the memory manager on one stored turn and turn its answer into what to persist. */
export async function deriveTurn(raw: RawTurn, state: MemoryState, context: WriteContext): Promise<DerivedTurn> {
  return completeTurn(raw, state, await runManager(raw, state, context), context);
}

/** Persist derived turns in order (call inside a transaction); refuses fact changes built on facts changed since (`staleFacts`). */
export async function writeDerivedTurns(repositories: TenantRepositories, derived: readonly DerivedTurn[]): Promise<void> {
  // Each session's last event sequence is read once; then the turns written here advance it.
  const lastSequence = new Map<string, number>();
  for (const turn of derived) {
    const changesFacts = turn.events.length > 0 || turn.upserts.length > 0 || turn.removedIds.length > 0;
    if (changesFacts && turn.basedOn != null) {
      const last = lastSequence.get(turn.sessionId) ?? (await repositories.facts.lastSequence({ sessionId: turn.sessionId }));
      if (last !== turn.basedOn) throw staleFacts(turn.sessionId, turn.turn);
      lastSequence.set(turn.sessionId, last);
    }
    if (turn.tierUpdates.length > 0) await repositories.messages.updateTiers({ sessionId: turn.sessionId, updates: turn.tierUpdates });
    await repositories.turns.upsert({ summary: turn.summary });
    const apply = async (change: FactChanges): Promise<void> => {
      await repositories.facts.apply({ sessionId: turn.sessionId, events: change.events, upserts: change.upserts, removedIds: change.removedIds });
      const written = change.events.at(-1)?.sequence;
      if (written !== undefined && lastSequence.has(turn.sessionId)) lastSequence.set(turn.sessionId, written);
    };
    if (changesFacts) await apply(turn);
    if (turn.consolidation != null) await apply(turn.consolidation);
    for (const artifact of turn.artifacts) {
      await repositories.artifacts.addVersion({ sessionId: turn.sessionId, ...artifact });
    }
  }
}

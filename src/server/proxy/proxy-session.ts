/**
 * Which session a proxied request belongs to, and how its turn is remembered. The session is named by
 * the `X-Strata-Session` header, else the `session` query parameter, else the body's `user` field; a
 * request naming none gets a fresh id. Nothing is written before the upstream has answered: a session
 * that does not exist yet (or holds no turn) is created, with the history the client sent recorded
 * first, only when the reply is remembered.
 */
import { isStrataError } from '../../core/errors.js';
import type { DetailRequestRecord } from '../../core/types.js';
import type { RecordInput, SessionHandle, TenantMemory } from '../../memory/memory-api.js';
import type { ToolStepInput } from '../../memory/tool-use-input.js';
import { checkSessionId } from '../../memory/session-input.js';
import { historyTurns, type ChatBodyMessage } from './chat-request.js';

export interface SessionSource {
  header: string | undefined;
  query: string | undefined;
  user: string | undefined;
}

/** The session a request names (checked), else a fresh id. */
export function sessionIdOf(source: SessionSource, newId: () => string): string {
  const named = [source.header, source.query, source.user].find((value) => value !== undefined && value !== '');
  return named === undefined ? newId() : checkSessionId(named);
}

/** The session when it exists and holds at least one turn (so its memory can stand in for the history), else null. */
export async function rememberedSession(tenant: TenantMemory, sessionId: string): Promise<SessionHandle | null> {
  try {
    const handle = await tenant.sessions.open(sessionId);
    return (await handle.info()).turnCount > 0 ? handle : null;
  } catch (error) {
    if (isStrataError(error, 'SESSION_NOT_FOUND')) return null;
    throw error;
  }
}

/** The session, created when it does not exist yet (by this request or one racing it). */
async function openOrCreate(tenant: TenantMemory, sessionId: string): Promise<SessionHandle> {
  try {
    return await tenant.sessions.open(sessionId);
  } catch (error) {
    if (!isStrataError(error, 'SESSION_NOT_FOUND')) throw error;
  }
  try {
    // Untitled: its first exchange names it.
    return await tenant.sessions.create({ id: sessionId });
  } catch (error) {
    if (!isStrataError(error, 'SESSION_EXISTS')) throw error;
    return tenant.sessions.open(sessionId);
  }
}

/**
 * Record a proxied turn once its reply has been sent: into a session made now if needed, after the
 * history the client sent when the session holds no turn yet.
 */
export async function rememberTurn(
  tenant: TenantMemory,
  sessionId: string,
  turn: { history: readonly ChatBodyMessage[]; user: string; tools: ToolStepInput[]; assistant: string; detailRequests?: DetailRequestRecord[] },
): Promise<void> {
  const handle = await openOrCreate(tenant, sessionId);
  // The history is read only for a session with no turn yet.
  if ((await handle.info()).turnCount === 0) for (const earlier of historyTurns(turn.history)) await recordKeepingText(handle, earlier);
  const detail = turn.detailRequests === undefined || turn.detailRequests.length === 0 ? {} : { detailRequests: turn.detailRequests };
  await recordKeepingText(handle, { user: turn.user, ...(turn.tools.length === 0 ? {} : { tools: turn.tools }), assistant: turn.assistant, ...detail });
}

/** Record a turn; when the library refuses its tool traffic (a result over the size limit …) or its detail records, the turn is still kept, as text. */
async function recordKeepingText(handle: SessionHandle, turn: RecordInput): Promise<void> {
  const { tools, detailRequests, ...text } = turn;
  try {
    await handle.record(turn);
  } catch (error) {
    if ((tools === undefined && detailRequests === undefined) || !isStrataError(error, 'INVALID_INPUT')) throw error;
    await handle.record(text);
  }
}

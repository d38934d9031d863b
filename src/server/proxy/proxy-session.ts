/**
 * Which session a proxied request belongs to: the `X-Strata-Session` header, else the `session` query
 * parameter, else the body's `user` field; a named session that does not exist yet is created with that
 * id, and a request that names none gets a new session. A new session first records the history the
 * client sent, so its memory starts from the whole conversation (so does an existing one with no turns).
 */
import { isStrataError } from '../../core/errors.js';
import type { SessionHandle, TenantMemory } from '../../memory/memory-api.js';
import { historyTurns, type ChatBodyMessage } from './chat-request.js';

export interface SessionSource {
  header: string | undefined;
  query: string | undefined;
  user: string | undefined;
}

/** A title from the first user words of a conversation (at most 60 characters). */
function titleFrom(text: string): string {
  const words = text.replace(/\s+/gu, ' ').trim();
  if (words === '') return 'Proxied conversation';
  return words.length <= 60 ? words : `${words.slice(0, 59).replace(/\s+\S*$/u, '')}…`;
}

export async function proxySession(tenant: TenantMemory, source: SessionSource, history: readonly ChatBodyMessage[], userText: string): Promise<SessionHandle> {
  const named = [source.header, source.query, source.user].find((value) => value !== undefined && value !== '');
  let handle: SessionHandle | undefined;
  if (named !== undefined) {
    try {
      handle = await tenant.sessions.open(named);
    } catch (error) {
      if (!isStrataError(error, 'SESSION_NOT_FOUND')) throw error;
    }
  }
  const turns = historyTurns(history);
  if (handle !== undefined) {
    // A session made empty elsewhere (REST, the library) takes the history too.
    if (turns.length > 0 && (await handle.info()).turnCount === 0) for (const turn of turns) await handle.record(turn);
    return handle;
  }
  {
    const title = titleFrom(turns[0]?.user ?? userText);
    try {
      handle = await tenant.sessions.create({ ...(named === undefined ? {} : { id: named }), title });
    } catch (error) {
      // Another request created it meanwhile.
      if (named === undefined || !isStrataError(error, 'SESSION_EXISTS')) throw error;
      return tenant.sessions.open(named);
    }
    for (const turn of turns) await handle.record(turn);
  }
  return handle;
}

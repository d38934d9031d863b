/**
 * What a session handle's methods share, and the reads they build on: the context package of a
 * session and the snapshot of everything it holds.
 */
import type { ToolExchanges } from './tool-exchange.js';
import { assembleContext } from '../context/assembler.js';
import type { ContextPackage } from '../context/context-package.js';
import type { LongTermSource } from '../context/long-term-source.js';
import type { LongTermRepository } from '../store/long-term-store.js';
import { checkRecallRequest, recallMemories } from './long-term-recall.js';
import type { EngineParts } from './engine-parts.js';
import { pacedPause } from '../core/event-loop.js';
import { StrataError } from '../core/errors.js';
import type { SessionSnapshot } from './session-export.js';
import type { TurnWork } from './turn-work.js';

export interface SessionServices {
  parts: EngineParts;
  work: TurnWork;
  /** Sessions whose chat turns have looked for turns an earlier run left underived. */
  resumeChecked: Set<string>;
  /** Chat turns waiting for the results of their tool calls, by session. */
  toolExchanges: ToolExchanges;
}

/** Memories a package recalls at most, before its budget share decides. */
const PACKAGE_RECALL_LIMIT = 20;

/**
 * The tenant's long-term memories for a session's packages: words and edges (the tag path is left to
 * `memories.recall`), memories that came from this session alone left out (its facts hold them).
 */
function longTermSource(repository: LongTermRepository, sessionId: string, now: () => string): LongTermSource {
  return {
    find: async (query) => {
      const request = { ...checkRecallRequest({ query: query.slice(0, 10_000), limit: PACKAGE_RECALL_LIMIT }), tagPath: false, markAccessed: false, besidesSession: sessionId };
      const { memories } = await recallMemories(repository, request, now());
      return memories.map(({ memory, reason }) => ({ id: memory.id, key: memory.key, value: memory.value, reason, sourceMessageIds: memory.sources.flatMap((source) => source.messageIds), modifiedAt: memory.modifiedAt }));
    },
    shown: (ids) => repository.mark({ ids, what: 'accessed', at: now() }),
  };
}

function sessionGone(sessionId: string): StrataError {
  return new StrataError('SESSION_NOT_FOUND', `Session "${sessionId}" was deleted while its context was assembled.`, { details: { sessionId } });
}

/** The session's context package under the budget, for the query when one is given. */
export async function assemble(services: SessionServices, sessionId: string, budget: number, query: string | undefined): Promise<ContextPackage> {
  // (A large session's package takes tens of milliseconds a step: other requests are served between them.)
  const pause = pacedPause(services.parts.settings.readSliceMs);
  const { repositories, tokenizer, turnReader, factReader, requireSession } = services.parts;
  const session = await requireSession(sessionId);
  // Turns another process or server wrote since the last package are read afresh.
  await turnReader.sync(session);
  await pause();
  const longTerm = longTermSource(repositories.longTerm, sessionId, services.parts.now);
  const assembled = await assembleContext({ repositories, session, budget, ...(query === undefined ? {} : { query }), tokenizer, settings: services.parts.assemblerSettings, turnReader, factReader, search: services.parts.search, longTerm, pause });
  // Deleted (or deleted and made again) while the package was assembled between other work: a package of
  // half of it is no answer.
  if ((await requireSession(sessionId)).createdAt !== session.createdAt) throw sessionGone(sessionId);
  return assembled;
}

/** Everything the session holds, for an export. */
export async function snapshot(parts: EngineParts, sessionId: string): Promise<SessionSnapshot> {
  const { repositories, requireSession } = parts;
  const session = await requireSession(sessionId);
  const [messages, turns, facts, factEvents, artifacts] = await Promise.all([
    repositories.messages.list({ sessionId }),
    repositories.turns.list({ sessionId }),
    repositories.facts.list({ sessionId }),
    repositories.facts.listEvents({ sessionId }),
    repositories.artifacts.list({ sessionId }),
  ]);
  return { session, messages, turns, facts, factEvents, artifacts };
}

/**
 * What a session handle's methods share, and the reads they build on: the context package of a
 * session and the snapshot of everything it holds.
 */
import type { ToolExchanges } from './tool-exchange.js';
import { assembleContext } from '../context/assembler.js';
import type { ContextPackage } from '../context/context-package.js';
import type { EngineParts } from './engine-parts.js';
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

/** The session's context package under the budget, for the query when one is given. */
export async function assemble(services: SessionServices, sessionId: string, budget: number, query: string | undefined): Promise<ContextPackage> {
  const { repositories, tokenizer, turnReader, factReader, requireSession } = services.parts;
  const session = await requireSession(sessionId);
  // Turns another process or server wrote since the last package are read afresh.
  await turnReader.sync(session);
  return assembleContext({ repositories, session, budget, ...(query === undefined ? {} : { query }), tokenizer, settings: services.parts.assemblerSettings, turnReader, factReader, search: services.parts.search });
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

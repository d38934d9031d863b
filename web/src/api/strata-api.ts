/** The REST API as typed functions: one per route the web app uses, and nothing it could not do over HTTP. */
import { ApiError } from './api-error.js';
import { readEvents } from './event-stream.js';
import { request, send } from './http.js';
import type {
  ChatModelStatus,
  ContextPackage,
  EvalExample,
  Fact,
  FactEvent,
  FactKind,
  MemoryOutcome,
  Message,
  RetentionRun,
  Session,
  StoredTurn,
  TurnSummary,
} from './types.js';

/** Whether the server wants an API key (`strata serve` without `--no-auth`). */
export async function authMode(): Promise<'keys' | 'none'> {
  const { auth } = await request<{ auth?: string }>('/healthz');
  return auth === 'none' ? 'none' : 'keys';
}

const session = (id: string): string => `/api/sessions/${encodeURIComponent(id)}`;

/** Every session, most recently updated first (read page by page). */
export async function listSessions(): Promise<Session[]> {
  const all: Session[] = [];
  for (let offset = 0; ; offset += 200) {
    const { sessions } = await request<{ sessions: Session[] }>('/api/sessions', { query: { limit: 200, offset } });
    all.push(...sessions);
    if (sessions.length < 200) return all;
  }
}

/** A new session; it is titled from its first exchange. */
export const createSession = (): Promise<Session> => request('/api/sessions', { method: 'POST', body: {} });
export const renameSession = (id: string, title: string): Promise<Session> => request(session(id), { method: 'PATCH', body: { title } });
export const deleteSession = (id: string): Promise<void> => request(session(id), { method: 'DELETE' });
export const readSession = (id: string): Promise<Session> => request(session(id));

/** The session's messages, or those from `offset` on (a client that holds the first `offset`). */
export const messagesOf = async (id: string, offset = 0): Promise<Message[]> =>
  (await request<{ messages: Message[] }>(`${session(id)}/messages`, { query: { offset: offset === 0 ? undefined : offset } })).messages;
export const turnsOf = async (id: string): Promise<TurnSummary[]> => (await request<{ turns: TurnSummary[] }>(`${session(id)}/turns`)).turns;
export const factsOf = async (id: string, atTurn?: number): Promise<Fact[]> => (await request<{ facts: Fact[] }>(`${session(id)}/facts`, { query: { atTurn } })).facts;
export const factEventsOf = async (id: string): Promise<FactEvent[]> => (await request<{ events: FactEvent[] }>(`${session(id)}/facts/events`)).events;

export const addFact = (id: string, change: { text: string; kind: FactKind; reason: string }): Promise<unknown> =>
  request(`${session(id)}/facts`, { method: 'POST', body: change });
export const editFact = (id: string, factId: string, change: { text: string; kind: FactKind; reason: string }): Promise<unknown> =>
  request(`${session(id)}/facts/${encodeURIComponent(factId)}`, { method: 'PATCH', body: change });
export const removeFact = (id: string, factId: string, reason: string): Promise<unknown> =>
  request(`${session(id)}/facts/${encodeURIComponent(factId)}`, { method: 'DELETE', body: { reason } });
export const undoEvent = (id: string, eventId: string): Promise<unknown> =>
  request(`${session(id)}/facts/events/${encodeURIComponent(eventId)}/undo`, { method: 'POST' });

export const contextOf = (id: string, budget: number, query: string, signal?: AbortSignal): Promise<ContextPackage> =>
  request(`${session(id)}/context`, { query: { budget, query: query.trim() || undefined }, signal });

export const recordTurn = (id: string, user: string, assistant: string): Promise<unknown> =>
  request(`${session(id)}/turns`, { method: 'POST', body: { user, assistant } });

export const importConversation = (data: unknown, source: string): Promise<{ sessionId: string; messages: number; turns: number }> =>
  request('/api/sessions/import', { method: 'POST', body: { data, source, newIds: true } });

/** The export as a file to save: its text and the type to save it as. */
export async function exportSession(id: string, format: 'json' | 'markdown'): Promise<Blob> {
  const response = await send(`${session(id)}/export`, { query: { format } });
  return new Blob([await response.text()], { type: format === 'json' ? 'application/json' : 'text/markdown' });
}

export const chatModel = (): Promise<ChatModelStatus> => request('/api/chat-model');
export const evalExamples = async (): Promise<EvalExample[]> => (await request<{ examples: EvalExample[] }>('/api/eval/examples')).examples;
export const runEval = async (input: { example: string } | { conversation: unknown }): Promise<RetentionRun> =>
  (await request<{ run: RetentionRun }>('/api/eval/retention', { method: 'POST', body: input })).run;

/** What a streamed chat turn tells as it goes. */
export interface ChatHandlers {
  onReply(text: string): void;
  onStored(stored: StoredTurn): void;
  onMemory(outcome: MemoryOutcome): void;
}

/** One chat turn through the engine's chat loop, streamed; resolves when phase 2 has ended. */
export async function chat(id: string, message: string, budget: number | undefined, handlers: ChatHandlers, signal?: AbortSignal): Promise<void> {
  const response = await send(`${session(id)}/chat`, { method: 'POST', body: { message, budget }, signal });
  if (response.body === null) throw new ApiError(response.status, 'BAD_RESPONSE', 'The chat answer has no body.');
  for await (const { event, data } of readEvents(response.body)) {
    const parsed: unknown = JSON.parse(data);
    if (event === 'reply') handlers.onReply((parsed as { text: string }).text);
    else if (event === 'stored') handlers.onStored(parsed as StoredTurn);
    else if (event === 'memory') handlers.onMemory(parsed as MemoryOutcome);
    else if (event === 'error') {
      const { error } = parsed as { error: { code: string; message: string } };
      throw new ApiError(500, error.code, error.message);
    }
  }
}

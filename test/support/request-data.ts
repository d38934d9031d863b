/**
 * What a memory-model request recorded by the scripted server carries: its body, and the JSON document of
 * the data block in its user message. Free of vitest, so the benchmarks can read requests the same way.
 */
import { DATA_CLOSE, DATA_OPEN } from '../../src/managers/model/prompt-data.js';
import type { RecordedRequest } from './scripted-openai-server.js';

/** The body of a chat request: its messages and, when it asks for JSON, the response format. */
export interface RequestBody {
  messages: Array<{ role: string; content: string }>;
  response_format?: unknown;
}

/** The data block of a turn request: the exchange to summarise and the facts the memory holds. */
export interface TurnData {
  exchange: Array<{ id: string; role: string; content: string; part?: string }>;
  currentFacts: unknown[];
}

/** The request body of a recorded chat request. */
export function bodyOf(request: RecordedRequest | undefined): RequestBody {
  return request?.body as RequestBody;
}

/**
 * The JSON document of the data block of a request's user message, or null when the request has no
 * messages, no user message or no data block.
 */
export function dataBlockOf(request: RecordedRequest | undefined): unknown {
  const messages = (request?.body as Partial<RequestBody> | null | undefined)?.messages ?? [];
  const user = messages.find((message) => message.role === 'user')?.content ?? '';
  const start = user.indexOf(DATA_OPEN);
  const end = user.lastIndexOf(DATA_CLOSE);
  if (start < 0 || end < start) return null;
  return JSON.parse(user.slice(start + DATA_OPEN.length, end)) as unknown;
}

/** The data block of a turn request; throws when the request has none. */
export function dataOf(request: RecordedRequest | undefined): TurnData {
  const data = dataBlockOf(request);
  if (data === null) throw new Error('The request has no data block in its user message.');
  return data as TurnData;
}

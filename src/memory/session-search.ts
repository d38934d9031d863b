/** `session.search()`: the session's messages that best match a query (the memory's recall: hybrid or BM25), best first. */
import { describeValue } from '../core/describe-value.js';
import { StrataError } from '../core/errors.js';
import { messageText } from '../core/tool-calls.js';
import type { Role } from '../core/types.js';
import type { EngineParts } from './engine-parts.js';
import { isOptions } from './session-input.js';

/** One message found by `session.search()`. */
export interface SearchResult {
  messageId: string;
  turn: number;
  role: Role;
  speaker: string | null;
  /** The message's raw text (tier 3), with the tools it called ("called name(arguments)") when it called some. */
  content: string;
  /** When it was sent, when known. */
  sentAt: string | null;
  /** Relevance, higher is better: BM25 with lexical recall, the fused rank score with hybrid recall. */
  score: number;
}

const MAX_QUERY_LENGTH = 10_000;
const MAX_LIMIT = 100;

function checkSearch(options: unknown): { query: string; limit: number } {
  if (!isOptions(options)) throw new StrataError('INVALID_INPUT', `search() takes { query, limit? } (got ${describeValue(options)}).`);
  const { query, limit = 10 } = options;
  if (typeof query !== 'string' || query.trim() === '' || query.length > MAX_QUERY_LENGTH) {
    throw new StrataError('INVALID_INPUT', `The search query must be non-empty text of at most ${MAX_QUERY_LENGTH} characters (got ${describeValue(query)}).`);
  }
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new StrataError('INVALID_INPUT', `The search limit must be a whole number from 1 to ${MAX_LIMIT} (got ${describeValue(limit)}).`);
  }
  return { query, limit };
}

export async function searchSession(parts: EngineParts, sessionId: string, options: unknown): Promise<SearchResult[]> {
  const { query, limit } = checkSearch(options);
  await parts.requireSession(sessionId);
  const hits = await parts.search({ sessionId, query, limit });
  const messages = await parts.repositories.messages.getMany({ sessionId, messageIds: hits.map((hit) => hit.messageId) });
  const byId = new Map(messages.map((message) => [message.id, message]));
  return hits.flatMap((hit) => {
    const message = byId.get(hit.messageId);
    if (message === undefined) return [];
    return [{ messageId: message.id, turn: message.turn, role: message.role, speaker: message.speaker, content: messageText(message), sentAt: message.sentAt, score: hit.score }];
  });
}

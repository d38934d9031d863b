/**
 * The fake store's vector index: an exact scan of the session's vectors by cosine similarity, the
 * answer sqlite-vec's index must give (the vector contract compares the two on small data).
 */
import { messageText } from '../../../src/core/tool-calls.js';
import type { MessageVectors, VectorHit } from '../../../src/store/store.js';
import { requireSession, storeFailure, type StateAccess, type TenantState } from './state.js';

type NearestOptions = Parameters<MessageVectors['nearest']>[0];

function cosine(left: Float32Array, right: Float32Array): number {
  let dot = 0;
  let leftSquares = 0;
  let rightSquares = 0;
  for (let index = 0; index < left.length; index += 1) {
    const a = left[index] ?? 0;
    const b = right[index] ?? 0;
    dot += a * b;
    leftSquares += a * a;
    rightSquares += b * b;
  }
  return leftSquares === 0 || rightSquares === 0 ? 0 : dot / Math.sqrt(leftSquares * rightSquares);
}

function nearest(state: TenantState, { sessionId, space, vector, limit, maxTurn }: NearestOptions): VectorHit[] {
  const session = state.sessions.get(sessionId);
  const vectors = session?.vectors.get(space);
  if (session === undefined || vectors === undefined || limit <= 0 || state.vectorSpaces.get(space) !== vector.length) return [];
  const hits = session.messages.flatMap(({ message }) => {
    const stored = vectors.byMessage.get(message.id);
    if (stored === undefined || message.turn > (maxTurn ?? Number.MAX_SAFE_INTEGER)) return [];
    return [{ messageId: message.id, turn: message.turn, position: message.position, similarity: cosine(stored, vector) }];
  });
  hits.sort((a, b) => b.similarity - a.similarity || a.position - b.position);
  return hits.slice(0, limit).map(({ messageId, turn, similarity }) => ({ messageId, turn, similarity }));
}

export function createMessageVectors(access: StateAccess): MessageVectors {
  return {
    available: true,
    pending: ({ sessionId, space, limit }) =>
      access.read((state) => {
        const session = state.sessions.get(sessionId);
        const through = session?.vectors.get(space)?.through ?? -1;
        return (session?.messages ?? [])
          .filter(({ message }) => message.position > through)
          .slice(0, Math.max(0, limit))
          .map(({ message }) => ({ messageId: message.id, position: message.position, text: messageText(message) }));
      }),
    put: ({ sessionId, space, dimensions, entries }) =>
      access.write((state) => {
        if (entries.length === 0) return;
        const session = requireSession(state, sessionId, 'vectors');
        const known = state.vectorSpaces.get(space);
        if (known !== undefined && known !== dimensions) throw storeFailure(`The vector space "${space}" holds vectors of ${String(known)} numbers, not ${String(dimensions)}.`, { space });
        state.vectorSpaces.set(space, dimensions);
        const vectors = session.vectors.get(space) ?? { through: -1, byMessage: new Map<string, Float32Array>() };
        for (const { messageId, vector } of entries) {
          const message = session.messages.find((entry) => entry.message.id === messageId)?.message;
          if (message === undefined) throw storeFailure(`Cannot store a vector for message "${messageId}": it is not a message of session "${sessionId}".`, { sessionId, messageId });
          if (vector !== null && vector.length !== dimensions) throw storeFailure(`A vector of ${String(vector.length)} numbers came for a space of ${String(dimensions)}.`, { space });
          if (vector === null) vectors.byMessage.delete(messageId);
          else vectors.byMessage.set(messageId, Float32Array.from(vector));
          vectors.through = Math.max(vectors.through, message.position);
        }
        session.vectors.set(space, vectors);
      }),
    nearest: (options) => access.read((state) => nearest(state, options)),
  };
}

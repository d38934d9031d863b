/**
 * The fake store's archive search: counts and BM25 ranking over the terms each message was indexed with
 * (messages.ts), as FTS5 computes them: k1 = 1.2, b = 0.75, IDF log((N - n + 0.5) / (n + 0.5)) floored at
 * 1e-6, a document's length the terms of its speaker and content. Statistics are the tenant's alone.
 */
import type { ArchiveSearch, SearchHit } from '../../../src/store/store.js';
import type { IndexedMessage, StateAccess, TenantState } from './state.js';
import { termsOf } from './terms.js';

const K1 = 1.2;
const B = 0.75;
const MIN_IDF = 1e-6;

/** How often the phrase (a query term's stems, in order) occurs in the terms of one field. */
function occurrences(terms: readonly string[], phrase: readonly string[]): number {
  let count = 0;
  for (let start = 0; start + phrase.length <= terms.length; start += 1) {
    if (phrase.every((term, offset) => terms[start + offset] === term)) count += 1;
  }
  return count;
}

/** How often the phrase occurs in the message's speaker and content (never across the two). */
function frequency(entry: IndexedMessage, phrase: readonly string[]): number {
  return phrase.length === 0 ? 0 : occurrences(entry.terms.speaker, phrase) + occurrences(entry.terms.content, phrase);
}

function length(entry: IndexedMessage): number {
  return entry.terms.speaker.length + entry.terms.content.length;
}

function tenantMessages(state: TenantState): IndexedMessage[] {
  return [...state.sessions.values()].flatMap((session) => session.messages);
}

/** The messages holding each phrase, in the order given. */
function documentFrequencies(documents: readonly IndexedMessage[], phrases: readonly string[][]): number[] {
  return phrases.map((phrase) => documents.filter((entry) => frequency(entry, phrase) > 0).length);
}

function rank(state: TenantState, options: { sessionId: string; terms: readonly string[]; limit: number; maxTurn?: number }): SearchHit[] {
  const candidates = (state.sessions.get(options.sessionId)?.messages ?? []).filter((entry) => entry.message.turn <= (options.maxTurn ?? Infinity));
  if (options.limit <= 0 || candidates.length === 0) return [];
  const documents = tenantMessages(state);
  const averageLength = documents.reduce((sum, entry) => sum + length(entry), 0) / documents.length;
  const phrases = options.terms.map(termsOf);
  const idfs = documentFrequencies(documents, phrases).map((hits) => {
    const idf = Math.log((documents.length - hits + 0.5) / (hits + 0.5));
    return idf > 0 ? idf : MIN_IDF;
  });
  const scored = candidates.map((entry) => {
    const norm = K1 * (1 - B + (B * length(entry)) / averageLength);
    const frequencies = phrases.map((phrase) => frequency(entry, phrase));
    const score = frequencies.reduce((sum, count, index) => sum + ((idfs[index] ?? 0) * count * (K1 + 1)) / (count + norm), 0);
    return { entry, matched: frequencies.some((count) => count > 0), score };
  });
  return scored
    .filter((hit) => hit.matched)
    .sort((a, b) => b.score - a.score || a.entry.message.position - b.entry.message.position)
    .slice(0, options.limit)
    .map((hit) => ({ messageId: hit.entry.message.id, turn: hit.entry.message.turn, score: hit.score }));
}

export function createArchiveSearch(access: StateAccess): ArchiveSearch {
  return {
    documentCount: () => access.read((state) => tenantMessages(state).length),
    termFrequencies: ({ terms }) => access.read((state) => documentFrequencies(tenantMessages(state), terms.map(termsOf))),
    rank: (options) => access.read((state) => rank(state, options)),
  };
}

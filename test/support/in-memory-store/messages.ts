/** Messages of the in-memory fake store: appended with their search terms, kept in position order. */
import { messageText, toolUseOf } from '../../../src/core/tool-calls.js';
import type { Message, Tier } from '../../../src/core/types.js';
import type { MessageRepository } from '../../../src/store/store.js';
import { noteTurnChanges, page, requireSession, storeFailure, type SessionState, type StateAccess, type TenantState } from './state.js';
import { termsOf } from './terms.js';

function messagesOf(state: TenantState, sessionId: string): Message[] {
  return (state.sessions.get(sessionId)?.messages ?? []).map((entry) => entry.message);
}

function copied(message: Message): Message {
  return { ...message, tokens: { ...message.tokens }, ...toolUseOf(message) };
}

/** The message as stored: its own fields only, in the session it was appended to. */
function stored(sessionId: string, message: Message): Message {
  const { id, turn, position, role, speaker, content, tier1, tier2, tokens, requiredTier, createdAt, sentAt, externalId } = message;
  return { id, sessionId, turn, position, role, speaker, content, tier1, tier2, tokens: { ...tokens }, requiredTier, createdAt, sentAt, externalId, ...toolUseOf(message) };
}

/** Refuse the batch unless every id is new to the tenant and every position new to the session. */
function checkAppend(state: TenantState, session: SessionState, messages: readonly Message[]): void {
  const ids = new Set<string>();
  for (const entry of state.sessions.values()) for (const { message } of entry.messages) ids.add(message.id);
  const positions = new Set(session.messages.map((entry) => entry.message.position));
  for (const message of messages) {
    if (ids.has(message.id)) throw storeFailure(`Message id "${message.id}" is already stored in this tenant; message ids must be unique.`, { messageId: message.id });
    if (positions.has(message.position)) {
      throw storeFailure(`Session "${session.session.id}" already has a message at position ${message.position}.`, { position: message.position });
    }
    ids.add(message.id);
    positions.add(message.position);
  }
}

export function createMessageRepository(access: StateAccess): MessageRepository {
  return {
    append: ({ sessionId, messages, updatedAt }) =>
      access.write((draft) => {
        const session = draft.sessions.get(sessionId);
        if (session === undefined) {
          if (messages.length > 0) requireSession(draft, sessionId, 'messages');
          return;
        }
        checkAppend(draft, session, messages);
        for (const message of messages) {
          session.messages.push({ message: stored(sessionId, message), terms: { speaker: termsOf(message.speaker ?? ''), content: termsOf(messageText(message)) } });
        }
        session.messages.sort((a, b) => a.message.position - b.message.position);
        const counters = session.session;
        counters.messageCount += messages.length;
        counters.tokenCount += messages.reduce((sum, message) => sum + message.tokens.tier3, 0);
        counters.turnCount = messages.reduce((most, message) => Math.max(most, message.turn), counters.turnCount);
        counters.updatedAt = updatedAt;
      }),
    updateTiers: ({ sessionId, updates }) =>
      access.write((draft) => {
        const written: number[] = [];
        for (const update of updates) {
          const entry = draft.sessions.get(sessionId)?.messages.find((candidate) => candidate.message.id === update.messageId);
          if (entry === undefined) continue;
          const { message } = entry;
          // A raised message returns to the manager's tier later, and keeps the higher one meanwhile.
          const requiredTier = entry.raised === undefined ? update.requiredTier : (Math.max(message.requiredTier, update.requiredTier) as Tier);
          if (entry.raised !== undefined) entry.raised = { ...entry.raised, defaultTier: update.requiredTier };
          Object.assign(message, { tier1: update.tier1, tier2: update.tier2, requiredTier });
          Object.assign(message.tokens, { tier1: update.tokens.tier1, tier2: update.tokens.tier2 });
          written.push(message.turn);
        }
        const session = draft.sessions.get(sessionId);
        if (session !== undefined) noteTurnChanges(draft, session, written);
      }),
    raiseTier: ({ sessionId, messageId, tier, turn }) =>
      access.write((draft) => {
        const session = draft.sessions.get(sessionId);
        const entry = session?.messages.find((candidate) => candidate.message.id === messageId);
        if (session === undefined || entry === undefined) return null;
        const { message } = entry;
        noteTurnChanges(draft, session, [message.turn]);
        if (message.requiredTier < tier || entry.raised !== undefined) {
          entry.raised = { defaultTier: entry.raised?.defaultTier ?? message.requiredTier, atTurn: turn };
          message.requiredTier = Math.max(message.requiredTier, tier) as Tier;
        }
        return copied(message);
      }),
    lowerTiers: ({ sessionId, raisedBefore }) =>
      access.write((draft) => {
        const turns = new Set<number>();
        for (const entry of draft.sessions.get(sessionId)?.messages ?? []) {
          if (entry.raised === undefined || entry.raised.atTurn >= raisedBefore) continue;
          entry.message.requiredTier = entry.raised.defaultTier;
          entry.raised = undefined;
          turns.add(entry.message.turn);
        }
        const session = draft.sessions.get(sessionId);
        if (session !== undefined) noteTurnChanges(draft, session, turns);
        return [...turns].sort((a, b) => a - b);
      }),
    listByTurns: ({ sessionId, fromTurn, toTurn }) =>
      access.read((state) =>
        messagesOf(state, sessionId)
          .filter((message) => message.turn >= fromTurn && message.turn <= toTurn)
          .sort((a, b) => a.turn - b.turn || a.position - b.position),
      ),
    list: ({ sessionId, limit, offset }) => access.read((state) => page(messagesOf(state, sessionId), limit, offset)),
    getMany: ({ sessionId, messageIds }) =>
      access.read((state) => {
        const wanted = new Set(messageIds);
        return messagesOf(state, sessionId).filter((message) => wanted.has(message.id));
      }),
    countUpToTurn: ({ sessionId, toTurn }) => access.read((state) => messagesOf(state, sessionId).filter((message) => message.turn <= toTurn).length),
    last: ({ sessionId }) =>
      access.read((state) => {
        const last = messagesOf(state, sessionId).at(-1);
        return { turn: last?.turn ?? 0, position: last?.position ?? -1 };
      }),
    sentTimes: ({ sessionId, turns }) =>
      access.read((state) => {
        const wanted = new Set(turns);
        const times = new Map<number, string>();
        const messages = messagesOf(state, sessionId).sort((a, b) => a.turn - b.turn || a.position - b.position);
        for (const message of messages) {
          if (wanted.has(message.turn) && message.sentAt !== null && !times.has(message.turn)) times.set(message.turn, message.sentAt);
        }
        return times;
      }),
  };
}

/**
 * `session.chat()`: a live turn in two phases (see `chat-turn.ts`). Phase 1 settles the session's memory
 * work (up to its bound), assembles the package with the message as the query and streams the reply;
 * the memory manager may start on the user's message meanwhile. Phase 2 stores the turn and remembers it.
 */
import { validateBudget } from '../context/assembler.js';
import { chatTurn, completeChat, type ChatResult, type ChatStream } from './chat-turn.js';
import type { ChatOptions } from './memory-api.js';
import { checkContent, checkMessageInput, type CheckedMessage } from './message-input.js';
import { assemble, type SessionServices } from './session-reads.js';

/** One chat turn of a session: the stream when `stream` is set, else the completed result. */
export function chatInSession(services: SessionServices, sessionId: string, userMessage: string, chatOptions: ChatOptions): ChatStream | Promise<ChatResult> {
  const { settings, repositories, manager, now, newId, gate, counters, logger } = services.parts;
  const { storeTurn, resumePending } = services.work;
  const { resumeChecked } = services;
  const chatModel = services.parts.requireChatModel();
  const content = checkContent(userMessage, 'The user message', settings.maxMessageBytes);
  const budget = chatOptions.budget === undefined ? settings.contextBudget : validateBudget(chatOptions.budget);
  // The user message is sent now: its id and time are settled now, so memory work on it can start while the model writes.
  const sentAt = now();
  const question = { id: newId(), role: 'user', content, speaker: null, externalId: null, createdAt: sentAt, sentAt } satisfies CheckedMessage;
  const stream = chatTurn({
    userMessage: content,
    chatModel,
    ...(chatOptions.signal === undefined ? {} : { signal: chatOptions.signal }),
    steps: {
      settle: async () => {
        // Turns an earlier run left underived are derived first, as record() and context() do; this
        // process leaves none behind unless writing them failed, so a session is checked once.
        if (!resumeChecked.has(sessionId)) {
          resumeChecked.add(sessionId);
          if ((await repositories.turns.listByStatus({ sessionId, status: 'pending-retry', limit: 1 })).length > 0) {
            void gate.enqueue(sessionId, () => resumePending(sessionId)).catch(() => undefined);
          }
        }
        return gate.settle(sessionId, { boundMs: settings.memoryWaitMs });
      },
      assemble: async (query) => assemble(services, sessionId, budget, query),
      prepare: () => {
        const failed = (error: unknown): void => {
          logger.warn({ sessionId, error: error instanceof Error ? error.message : String(error) }, 'the memory manager could not start on the user message early; it will after the reply');
        };
        try {
          const started = manager.prepare?.({ sessionId, message: { id: question.id, role: question.role, speaker: question.speaker, content: question.content, sentAt: question.sentAt }, timestamp: question.createdAt });
          if (started instanceof Promise) started.catch(failed);
        } catch (error) {
          failed(error);
        }
      },
      store: async ({ assistant, staleMemory }) => {
        // The user message was checked when the turn began.
        const stored = await storeTurn(sessionId, [question, checkMessageInput(assistant, 'assistant', now(), settings.maxMessageBytes)], staleMemory);
        return {
          turn: stored.raw.turn,
          messageIds: stored.raw.messages.map((message) => message.id),
          memory: stored.memory.then((result) => ({ turn: result.turn, status: result.status, problem: result.problem })),
        };
      },
      monotonic: () => performance.now(),
    },
  });
  stream.result.then(
    (result) => {
      counters.add(sessionId, {
        chatTurns: 1,
        lockWaits: result.lockWaitMs > 0 ? 1 : 0,
        lockWaitMs: result.lockWaitMs,
        staleTurns: result.staleMemory ? 1 : 0,
        tokens: { context: result.contextTokens, chatPrompt: result.usage.promptTokens, chatCompletion: result.usage.completionTokens },
      });
      const details = { sessionId, turn: result.turn, contextTokens: result.contextTokens, overheadMs: result.overheadMs, lockWaitMs: result.lockWaitMs };
      if (result.staleMemory) logger.warn(details, 'chat turn proceeded on stale memory: the previous turn was still being remembered');
      else logger.debug(details, 'chat turn');
    },
    (error: unknown) => logger.warn({ sessionId, error: (error as Error).message }, 'chat turn failed; nothing was stored'),
  );
  return chatOptions.stream === true ? stream : completeChat(stream);
}

/**
 * `session.chat()`: a live turn in two phases (see `chat-turn.ts`). Phase 1 settles the session's memory
 * work (up to its bound), assembles the package with the message as the query and streams the reply;
 * the memory manager may start on the user's message meanwhile. Phase 2 stores the turn and remembers it.
 * With tools, a reply that calls some is held (tool-exchange.ts) until `chat({ toolResults })` answers
 * them; the turn is stored, calls and results included, once the model answers in text.
 */
import { StrataError } from '../core/errors.js';
import { TOKENS_PER_REPLY } from '../providers/tokenizer/tokenizer.js';
import { validateBudget } from '../context/assembler.js';
import { chatTurn, completeChat, type ChatResult, type ChatStream } from './chat-turn.js';
import type { ChatOptions } from './memory-api.js';
import { checkChatCall } from './chat-call-options.js';
import { checkContent, checkMessageInput } from './message-input.js';
import { answerCalls, exchangeMessages, exchangeTurn, withCalls, type ToolExchange } from './tool-exchange.js';
import { applyDetailRequest, detailCounts } from './detail-requests.js';
import { detailFormFor } from './detail-tools.js';
import { assemble, type SessionServices } from './session-reads.js';

/**
 * The exchange a chat call works on: a new one for a user message (one still waiting for tool results
 * is given up), or the session's waiting one with the results of its calls.
 */
function exchangeFor(services: SessionServices, sessionId: string, input: unknown): { exchange: ToolExchange; waiting: ToolExchange | undefined } {
  const { settings, now, newId, logger } = services.parts;
  const waiting = services.toolExchanges.get(sessionId);
  if (typeof input !== 'string') {
    const exchange = answerCalls(waiting, input, settings.maxMessageBytes, now());
    if (waiting === undefined || !services.toolExchanges.claim(waiting)) {
      throw new StrataError('INVALID_INPUT', 'Another chat() call is already answering these tool calls; wait for its result.');
    }
    return { exchange, waiting };
  }
  const content = checkContent(input, 'The user message', settings.maxMessageBytes);
  if (waiting !== undefined) logger.warn({ sessionId }, 'a new message came while tool calls waited for results; that turn was given up, nothing of it stored');
  // The user message is sent now: its id and time are settled now, so memory work on it can start while the model writes.
  const sentAt = now();
  services.toolExchanges.drop(sessionId);
  return { exchange: { question: { id: newId(), role: 'user', content, speaker: null, externalId: null, createdAt: sentAt, sentAt }, steps: [] }, waiting: undefined };
}

/** One chat turn of a session (or the next step of one waiting for tool results): the stream when `stream` is set, else the completed result. */
export function chatInSession(services: SessionServices, sessionId: string, input: unknown, chatOptions: ChatOptions): ChatStream | Promise<ChatResult> {
  const { settings, repositories, manager, now, gate, counters, logger } = services.parts;
  const { storeTurn, resumePending } = services.work;
  const { resumeChecked, toolExchanges } = services;
  const chatModel = services.parts.requireChatModel();
  const budget = chatOptions.budget === undefined ? settings.contextBudget : validateBudget(chatOptions.budget);
  const call = checkChatCall(chatOptions as Record<string, unknown>);
  // (A call that goes on with waiting calls claims them; failing, it gives them back to wait again.)
  const { exchange, waiting } = exchangeFor(services, sessionId, input);
  const fresh = waiting === undefined;
  const { question } = exchange;
  const stream = chatTurn({
    query: question.content,
    exchange: exchangeMessages(exchange),
    chatModel,
    call,
    detailRounds: settings.detailRounds,
    detailForm: detailFormFor(settings.detailProtocol, call),
    budget,
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
      assemble: async (query, { searches, extra }) => {
        // The protocol's message is sent beside the package: the package gives it room in the budget.
        const room = extra.length === 0 ? 0 : services.parts.tokenizer.countMessages([...extra]);
        return assemble(services, sessionId, Math.max(1, budget - room), [query, ...searches].join('\n'));
      },
      // Messages count one by one, and the reply's priming once: the package's own count plus the extra's.
      measure: (pkg, extra) => {
        if (extra.length === 0) return pkg.tokens;
        const room = services.parts.tokenizer.countMessages([...extra]);
        return pkg.tokens === 0 ? room : pkg.tokens + room - TOKENS_PER_REPLY;
      },
      request: (request, round) => applyDetailRequest(services.parts, sessionId, request, round),
      prepare: () => {
        // (Only a turn's first call: later ones answer tool calls of a message already prepared.)
        if (!fresh) return;
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
      hold: ({ text, toolCalls }) => {
        const next = withCalls(exchange, text, toolCalls, now(), settings.maxMessageBytes);
        if (!toolExchanges.replace(sessionId, waiting, next)) logger.warn({ sessionId }, 'a new message came while this turn waited for the model; its tool calls are not kept');
      },
      store: async ({ assistant, staleMemory, detailRequests }) => {
        // The user message was checked when the turn began; the reply is checked before anything changes.
        const reply = checkMessageInput(assistant, 'assistant', now(), settings.maxMessageBytes);
        const stored = await storeTurn(sessionId, exchangeTurn(exchange, reply), { staleMemory, detailRequests });
        // The turn is done with tools (unless a new message has given it up meanwhile: nothing to do then).
        if (waiting !== undefined) toolExchanges.replace(sessionId, waiting, undefined);
        return {
          turn: stored.raw.turn,
          messageIds: stored.raw.messages.map((message) => message.id),
          memory: stored.memory.then((result) => ({ turn: result.turn, status: result.status, problem: result.problem })),
        };
      },
      monotonic: () => performance.now(),
    },
  });
  // A failed call gives its claim back: the calls wait for results again.
  if (waiting !== undefined) stream.result.catch(() => toolExchanges.release(waiting));
  stream.result.then(
    (result) => {
      counters.add(sessionId, {
        chatTurns: result.turn > 0 ? 1 : 0,
        lockWaits: result.lockWaitMs > 0 ? 1 : 0,
        lockWaitMs: result.lockWaitMs,
        staleTurns: result.staleMemory ? 1 : 0,
        ...detailCounts(result.detailRequests),
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

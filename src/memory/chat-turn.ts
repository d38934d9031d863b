/**
 * Phase 1 of a live chat turn: wait (boundedly) for the session's memory work, assemble the package
 * with the user's message as the query, stream the chat model's reply to the caller as it arrives,
 * then store the exchange and hand it to phase 2. The caller sees the reply at once; memory work
 * never delays it longer than the bound. A reply that calls tools is held, not stored: the turn goes on
 * once the caller sends their results.
 *
 * With the detail protocol on, the model may answer with requests instead (a message at a higher tier,
 * a search of older turns): they are applied, the package is built again and the model asked again, up
 * to `detailRounds` more times. Requests never reach the user, and each is recorded on the turn.
 */
import type { DetailRequest } from '../core/detail-markers.js';
import { StrataError, isStrataError } from '../core/errors.js';
import type { ChatMessage, DetailRequestRecord, ToolCall } from '../core/types.js';
import type { ContextPackage } from '../context/context-package.js';
import type { ChatModel, ChatUsage } from '../providers/chat-model/chat-model.js';
import type { ChatCall } from './chat-call-options.js';
import { addUsage, streamRound, type RoundOutcome } from './chat-round.js';
import { detailProtocolMessage } from './detail-protocol.js';
import { settleDetailReply } from './detail-reply.js';
import { withDetailTools } from './detail-tools.js';
import type { GateWait } from './memory-gate.js';

/** What the chat loop needs from the engine, one function per step. */
export interface ChatTurnSteps {
  /** Wait for the session's earlier memory work, up to the bound. */
  settle(): Promise<GateWait>;
  /**
   * The context package for the user's message (and the searches the model asked for), leaving room
   * for `extra`, the messages sent after it before the exchange (the detail protocol's).
   */
  assemble(query: string, detail: { searches: readonly string[]; extra: readonly ChatMessage[] }): Promise<ContextPackage>;
  /** Tokens of the package and `extra` sent together (the turn's figure), without counting the package again. */
  measure(pkg: ContextPackage, extra: readonly ChatMessage[]): number;
  /** Apply one request of the model (raise a message's tier, note a search); says what it did. */
  request(request: DetailRequest, round: number): Promise<DetailRequestRecord>;
  /**
   * Store both messages of the turn (the user's, held since the turn began, and the reply) raw, in one
   * transaction; resolves once they are durable, with phase 2 for the turn started and its outcome to
   * come through `memory`.
   */
  store(exchange: { assistant: string; staleMemory: boolean; detailRequests: DetailRequestRecord[] }): Promise<{ turn: number; messageIds: string[]; memory: Promise<ChatMemoryOutcome> }>;
  /** Keep a reply that calls tools until the caller sends their results (nothing is stored). */
  hold(reply: { text: string; toolCalls: ToolCall[] }): void;
  /** Called once the chat model has begun its reply: memory work on the user's message that can be done while it writes. Never throws. */
  prepare(): void;
  /** Time in milliseconds, for the overhead figures. */
  monotonic(): number;
}

/** How phase 2 ended for a turn. */
export interface ChatMemoryOutcome {
  turn: number;
  /**
   * `summarised`, or `fallback-raw` / `pending-retry` when memory work failed (the turn is stored either
   * way); `awaiting-tool-results` (turn 0) when the reply called tools and nothing is stored yet.
   */
  status: string;
  problem: string | null;
}

/** The outcome of a chat turn once the reply is complete and stored, or once it asks for tools. */
export interface ChatResult {
  /** The assistant's reply as streamed (with tool calls, what it said beside them, often nothing). */
  reply: string;
  /**
   * The tools the model asks to call (empty when it answered). Then nothing is stored yet (`turn` is 0,
   * `messageIds` empty, `memory` status `awaiting-tool-results`): run them and send their results with
   * `chat({ toolResults })` to go on with the turn.
   */
  toolCalls: ToolCall[];
  /** The stored turn; 0 while tool calls wait for results. */
  turn: number;
  /** Ids of the stored messages (the user's, any tool calls and results, the reply); empty while tool calls wait. */
  messageIds: string[];
  /** Rendered tokens of the context package sent to the model, and its budget. */
  contextTokens: number;
  budget: number;
  /** True when the session's previous memory work had not finished within the bound. */
  staleMemory: boolean;
  /** Time phase 1 waited for the previous memory work. */
  lockWaitMs: number;
  /** Strata's own time before the model call: waiting, assembly and bookkeeping, in milliseconds. */
  overheadMs: number;
  /** Tokens the chat model billed (every round of the turn). */
  usage: ChatUsage;
  /** What the model asked for before it answered, round by round, and what each request did. */
  detailRequests: DetailRequestRecord[];
  /** Phase 2 of this turn; resolves when its memory is written (or has failed visibly). */
  memory: Promise<ChatMemoryOutcome>;
}

/** A streamed reply: iterate for text as it arrives; `result` resolves once the reply is stored. */
export interface ChatStream extends AsyncIterable<string> {
  readonly result: Promise<ChatResult>;
}

export interface ChatTurnOptions {
  /** What the package is assembled for: the user's message. */
  query: string;
  /** What follows the package: the user's message, then any tool calls already answered in this turn. */
  exchange: ChatMessage[];
  chatModel: ChatModel;
  /** Tools and sampling for the model. */
  call: ChatCall;
  steps: ChatTurnSteps;
  signal?: AbortSignal;
  /** Extra rounds the model may use to ask for detail; 0 turns the protocol off. */
  detailRounds: number;
  /** How the model asks: markers in its reply, or the detail tools (see `detailFormFor`). Default markers. */
  detailForm?: 'markers' | 'tools';
  /** The turn's budget: the package and the protocol's message together stay within it. */
  budget: number;
}

/**
 * Run one chat turn. The returned stream starts the model call when iterated; the reply must be read to
 * its end for the turn to be stored (leaving the loop early cancels the call and stores nothing).
 */
export function chatTurn(options: ChatTurnOptions): ChatStream {
  const { steps, chatModel, query, exchange, call } = options;
  let resolveResult: (result: ChatResult) => void = () => undefined;
  let rejectResult: (error: unknown) => void = () => undefined;
  const result = new Promise<ChatResult>((resolve, reject) => {
    resolveResult = resolve;
    rejectResult = reject;
  });
  // A caller that only reads the text must not see an unhandled rejection from `result`.
  result.catch(() => undefined);
  // One generator: reading the reply a second time finds it finished.
  async function* run(): AsyncGenerator<string> {
    let completed = false;
    try {
      const start = steps.monotonic();
      const wait = await steps.settle();
      const rounds = options.detailRounds;
      const detailRequests: DetailRequestRecord[] = [];
      const searches: string[] = [];
      let reply = '';
      let usage: ChatUsage = { promptTokens: 0, completionTokens: 0 };
      let toolCalls: ToolCall[] = [];
      let prepared = false;
      let overheadMs = 0;
      let sent: { pkg: ContextPackage; extra: ChatMessage[] } | null = null;
      const tools = options.detailForm === 'tools';
      // With tools, the model's detail calls and what each did follow the user's message in later rounds.
      let followUps: ChatMessage[] = [];
      for (let round = 1; ; round++) {
        const asking = round <= rounds;
        const before = asking ? [detailProtocolMessage({ roundsLeft: rounds - round + 1, form: options.detailForm ?? 'markers' })] : [];
        const extra = [...before, ...followUps];
        const pkg = await steps.assemble(query, { searches, extra });
        sent = { pkg, extra };
        if (round === 1) overheadMs = steps.monotonic() - start;
        const outcome: RoundOutcome = yield* streamRound({
          chatModel,
          messages: [...pkg.render(), ...before, ...exchange, ...followUps],
          call: tools && asking ? withDetailTools(call) : call,
          signal: options.signal,
          markers: !tools && rounds > 0,
          onFirstPiece: () => {
            // After the first piece is passed on, while the model writes the rest (a reply that comes
            // whole has no such time: its memory work all waits for phase 2).
            if (prepared) return;
            prepared = true;
            steps.prepare();
          },
        });
        reply += outcome.text;
        usage = addUsage(usage, outcome.usage);
        // With tools, the detail calls are the engine's: the caller sees only its own tools' calls.
        const settled = await settleDetailReply(outcome, { form: tools ? 'tools' : 'markers', round, asking, apply: (request, at) => steps.request(request, at) });
        toolCalls = settled.callerCalls;
        detailRequests.push(...settled.records);
        if (!settled.again) break;
        searches.push(...settled.searches);
        followUps = [...followUps, ...settled.followUps];
      }
      const figures = { contextTokens: sent === null ? 0 : steps.measure(sent.pkg, sent.extra), budget: options.budget, staleMemory: wait.stale, lockWaitMs: wait.waitedMs, overheadMs, usage, detailRequests };
      if (toolCalls.length > 0) {
        steps.hold({ text: reply, toolCalls });
        completed = true;
        const memory = Promise.resolve({ turn: 0, status: 'awaiting-tool-results', problem: null });
        resolveResult({ reply, toolCalls, turn: 0, messageIds: [], memory, ...figures });
        return;
      }
      if (reply.trim() === '') {
        throw new StrataError('MODEL_OUTPUT_INVALID', `The chat model "${chatModel.model}" returned an empty reply; nothing was stored. Try again, or check the model's configuration.`);
      }
      const stored = await steps.store({ assistant: reply, staleMemory: wait.stale, detailRequests });
      const memory = stored.memory;
      memory.catch(() => undefined);
      completed = true;
      resolveResult({ reply, toolCalls, turn: stored.turn, messageIds: stored.messageIds, memory, ...figures });
    } catch (error) {
      completed = true;
      rejectResult(isStrataError(error) ? error : new StrataError('MODEL_FAILURE', `The chat turn failed: ${(error as Error).message}`, { cause: error }));
      throw error;
    } finally {
      if (!completed) rejectResult(new StrataError('MODEL_ABORTED', 'The reply was not read to its end, so the turn was not stored.'));
    }
  }

  const iterable = run();
  return {
    result,
    [Symbol.asyncIterator]: () => iterable,
  };
}

/** Read a chat stream to its end and return the result (the non-streaming form of `session.chat`). */
export async function completeChat(stream: ChatStream): Promise<ChatResult> {
  for await (const piece of stream) void piece;
  return stream.result;
}

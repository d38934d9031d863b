/**
 * A Vercel AI SDK language-model middleware that gives any model Strata's memory of one session: before
 * each call the prompt's history (everything before the last user message) is replaced by the session's
 * context package, the caller's system messages first and the exchange in progress as it was sent; once
 * the model has answered in text, the user's message, the exchange's tool steps and the reply are
 * recorded as a turn. A reply that calls tools records nothing yet (the SDK sends their results in its
 * next step); if the app moves on to a new message instead, that exchange is recorded as it stands. A
 * failed answer records nothing. A session with no turns yet gets the prompt unchanged, and its history
 * is recorded first.
 */
import type { LanguageModelMiddleware } from 'ai';
import type { RecordInput, SessionHandle } from '../memory/memory-api.js';
import { createGptTokenizer } from '../providers/tokenizer/gpt-tokenizer.js';
import { TOKENS_PER_REPLY, type Tokenizer } from '../providers/tokenizer/tokenizer.js';
import { historyTurns, splitPrompt, textOf, toChatMessages, toPromptMessages, turnOf, type CallOptions, type PromptMessage } from './prompt-messages.js';

export interface StrataMiddlewareOptions {
  /** The session whose memory the model gets (`memory.sessions.open(id)` or `create()`). */
  session: SessionHandle;
  /**
   * Tokens the prompt's messages may have (default 30,000): the package gets what the caller's system
   * messages and the exchange in progress leave. Tool definitions and file contents are not counted.
   */
  budget?: number;
  /** Counts the prompt as the model will (default: o200k_base; use the memory's tokenizer setting). */
  tokenizer?: Tokenizer;
  /** Told when recording a turn fails after the answer went out (default: nothing; the answer is not affected). */
  onError?: (error: unknown) => void;
}

type StreamPart = Awaited<ReturnType<Parameters<NonNullable<LanguageModelMiddleware['wrapStream']>>[0]['doStream']>>['stream'] extends ReadableStream<infer Part> ? Part : never;

/** Budget when none is given, in tokens. */
const DEFAULT_BUDGET = 30_000;

/** Recordings in progress by session id: one after another per session, whichever middleware made them. */
const recordings = new Map<string, Promise<void>>();

/** Run `work` after the session's earlier recordings (a failure reaches `onError`, never the chain). */
function recordInOrder(sessionId: string, work: () => Promise<void>, onError: ((error: unknown) => void) | undefined): Promise<void> {
  const next = (recordings.get(sessionId) ?? Promise.resolve()).then(work).catch((error: unknown) => {
    try {
      onError?.(error);
    } catch {
      // (The caller's handler failing must not stop later recordings.)
    }
  });
  recordings.set(sessionId, next);
  void next.then(() => {
    if (recordings.get(sessionId) === next) recordings.delete(sessionId);
  });
  return next;
}

/** What a call was sent: the exchange, and the history of a session with no turns yet. */
interface Sent {
  exchange: PromptMessage[];
  history: PromptMessage[] | null;
}

/** How an answer ended, as the middleware reads it. */
interface Answer {
  text: string;
  /** Tools the app is to run (not those the provider ran itself). */
  toolCalls: number;
  failed: boolean;
}

const same = (a: PromptMessage | undefined, b: PromptMessage | undefined): boolean => a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b);

/**
 * The middleware. Wrap a model with it for one session: `wrapLanguageModel({ model, middleware: strataMiddleware({ session }) })`.
 *
 * @example
 * import { generateText, wrapLanguageModel } from 'ai';
 * const session = await memory.sessions.create({ title: 'Support' });
 * const model = wrapLanguageModel({ model: openai('gpt-4o-mini'), middleware: strataMiddleware({ session }) });
 * await generateText({ model, messages: [{ role: 'user', content: 'Where were we?' }] });
 */
export function strataMiddleware(options: StrataMiddlewareOptions): LanguageModelMiddleware {
  const { session } = options;
  const budget = options.budget ?? DEFAULT_BUDGET;
  const tokenizer = options.tokenizer ?? createGptTokenizer();
  const calls = new WeakMap<CallOptions, Sent>();
  /** The exchange of the last answer that called tools, until it is answered or given up. */
  let unfinished: PromptMessage[] | null = null;

  const record = (sent: Sent, turn: RecordInput): void => {
    void recordInOrder(
      session.id,
      async () => {
        if (sent.history !== null && (await session.info()).turnCount === 0) for (const earlier of historyTurns(sent.history)) await session.record(earlier);
        await session.record(turn);
      },
      options.onError,
    );
  };

  const remember = (params: CallOptions, answer: Answer): void => {
    const sent = calls.get(params);
    if (sent === undefined || answer.failed) return;
    if (answer.toolCalls > 0) {
      unfinished = sent.exchange;
      return;
    }
    unfinished = null;
    if (answer.text.trim() === '') return;
    const turn = turnOf(sent.exchange, answer.text);
    if (turn !== null) record(sent, turn);
  };

  /** An exchange left calling tools while the app moved on: recorded from where the new prompt has it. */
  const settleUnfinished = (history: readonly PromptMessage[], exchange: readonly PromptMessage[]): void => {
    const left = unfinished;
    if (left === null || same(exchange[0], left[0])) return;
    unfinished = null;
    const start = history.findLastIndex((message) => same(message, left[0]));
    const turn = turnOf(start < 0 ? left : history.slice(start), null);
    if (turn !== null) record({ exchange: [], history: null }, turn);
  };

  return {
    specificationVersion: 'v3',
    transformParams: async ({ params }) => {
      const { system, history, exchange } = splitPrompt(params.prompt);
      settleUnfinished(history, exchange);
      // The previous answer's turn first, so the package holds it.
      await recordings.get(session.id);
      const { turnCount } = await session.info();
      if (turnCount === 0) {
        calls.set(params, { exchange, history });
        return params;
      }
      const user = exchange.find((message) => message.role === 'user');
      const query = user === undefined ? '' : textOf(user);
      // (Both counts include the reply's priming once; the package's room is what the rest leaves.)
      const extra = toChatMessages([...system, ...exchange]);
      const kept = extra.length === 0 ? 0 : tokenizer.countMessages(extra) - TOKENS_PER_REPLY;
      const pkg = await session.context({ budget: Math.max(1, budget - kept), ...(query.trim() === '' ? {} : { query }) });
      const transformed: CallOptions = { ...params, prompt: [...system, ...toPromptMessages(pkg.render()), ...exchange] };
      calls.set(transformed, { exchange, history: null });
      return transformed;
    },
    wrapGenerate: async ({ doGenerate, params }) => {
      const result = await doGenerate();
      remember(params, {
        text: result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(''),
        toolCalls: result.content.filter((part) => part.type === 'tool-call' && part.providerExecuted !== true).length,
        failed: result.finishReason.unified === 'error',
      });
      return result;
    },
    wrapStream: async ({ doStream, params }) => {
      const { stream, ...rest } = await doStream();
      const answer: Answer = { text: '', toolCalls: 0, failed: false };
      let finished = false;
      const watch = new TransformStream<StreamPart, StreamPart>({
        transform(part, controller) {
          if (part.type === 'text-delta') answer.text += part.delta;
          else if (part.type === 'tool-call' && part.providerExecuted !== true) answer.toolCalls += 1;
          else if (part.type === 'error') answer.failed = true;
          else if (part.type === 'finish') {
            finished = true;
            if (part.finishReason.unified === 'error') answer.failed = true;
          }
          controller.enqueue(part);
        },
        flush() {
          // Only an answer that reached its end is a turn.
          if (finished) remember(params, answer);
        },
      });
      return { stream: stream.pipeThrough(watch), ...rest };
    },
  };
}

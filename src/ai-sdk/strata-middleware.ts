/**
 * A Vercel AI SDK language-model middleware that gives any model Strata's memory of one session: before
 * each call the prompt's history (everything before the last user message) is replaced by the session's
 * context package, the caller's system messages first and the exchange in progress as it was sent; once
 * the model has answered in text, the user's message, the exchange's tool steps and the reply are
 * recorded as a turn. A reply that only calls tools records nothing yet (the SDK sends their results in
 * its next step). A session with no turns yet gets the prompt unchanged, and its history is recorded first.
 */
import type { LanguageModelMiddleware } from 'ai';
import type { SessionHandle } from '../memory/memory-api.js';
import { createGptTokenizer } from '../providers/tokenizer/gpt-tokenizer.js';
import { TOKENS_PER_REPLY, type Tokenizer } from '../providers/tokenizer/tokenizer.js';
import { historyTurns, splitPrompt, textOf, toChatMessages, toPromptMessages, turnOf, type CallOptions, type PromptMessage } from './prompt-messages.js';

export interface StrataMiddlewareOptions {
  /** The session whose memory the model gets (`memory.sessions.open(id)` or `create()`). */
  session: SessionHandle;
  /**
   * Tokens the whole prompt may have, in tokens (default 30,000): the package gets what the caller's
   * system messages and the exchange in progress leave.
   */
  budget?: number;
  /** Counts the prompt as the model will (default: o200k_base; use the memory's tokenizer setting). */
  tokenizer?: Tokenizer;
  /** Told when recording a turn fails after the answer went out (default: nothing; the answer is not affected). */
  onError?: (error: unknown) => void;
}

type StreamPart = Awaited<ReturnType<Parameters<NonNullable<LanguageModelMiddleware['wrapStream']>>[0]['doStream']>>['stream'] extends ReadableStream<infer Part> ? Part : never;

/** Default package budget when none is given: Strata's own default. */
const DEFAULT_BUDGET = 30_000;

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
  /** What each call was sent, by its (transformed) options: the exchange, and the history of a session new to it. */
  const calls = new WeakMap<CallOptions, { exchange: PromptMessage[]; history: PromptMessage[] | null }>();
  // Turns are recorded one after another, in the order their answers ended.
  let recording: Promise<void> = Promise.resolve();

  const remember = (params: CallOptions, reply: string, toolCalls: number): void => {
    const sent = calls.get(params);
    if (sent === undefined || toolCalls > 0 || reply.trim() === '') return;
    const turn = turnOf(sent.exchange, reply);
    if (turn === null) return;
    recording = recording
      .then(async () => {
        if (sent.history !== null && (await session.info()).turnCount === 0) for (const earlier of historyTurns(sent.history)) await session.record(earlier);
        await session.record(turn);
      })
      .catch((error: unknown) => options.onError?.(error));
  };

  return {
    specificationVersion: 'v3',
    transformParams: async ({ params }) => {
      // The previous answer's turn first, so the package holds it.
      await recording;
      const { system, history, exchange } = splitPrompt(params.prompt);
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
      const text = result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
      remember(params, text, result.content.filter((part) => part.type === 'tool-call').length);
      return result;
    },
    wrapStream: async ({ doStream, params }) => {
      const { stream, ...rest } = await doStream();
      let text = '';
      let toolCalls = 0;
      let finished = false;
      const watch = new TransformStream<StreamPart, StreamPart>({
        transform(part, controller) {
          if (part.type === 'text-delta') text += part.delta;
          else if (part.type === 'tool-call') toolCalls += 1;
          else if (part.type === 'finish') finished = true;
          controller.enqueue(part);
        },
        flush() {
          // Only an answer that reached its end is a turn.
          if (finished) remember(params, text, toolCalls);
        },
      });
      return { stream: stream.pipeThrough(watch), ...rest };
    },
  };
}

import type { ToolCall } from '../../core/types.js';
import type { ChatStreamEvent, StreamOptions } from '../chat-model/chat-model.js';
import { chunkShape, toFinishReason, toUsage } from './chat-completion-shape.js';
import { streamRequest } from './chat-request.js';
import { StreamedToolCalls } from './streamed-tool-calls.js';
import { startDeadline } from './deadline.js';
import { callContext, firstIssue, invalidOutput, toModelError, type CallContext } from './model-errors.js';
import type { OpenAiConnection } from './openai-connection.js';

/** What the chunks of a stream have said so far; later chunks override the model, usage and finish reason. */
interface StreamedReply {
  text: string;
  finishReason: string | null | undefined;
  usage: Parameters<typeof toUsage>[0];
  model: string;
  /** Tool calls, as their pieces arrive. */
  calls: StreamedToolCalls;
}

/**
 * A streamed chat completion: a `delta` event for each piece of text, then one `done` event. The
 * deadline bounds each wait for the next chunk, not the time the caller spends with one.
 */
export async function* streamChat(connection: OpenAiConnection, options: StreamOptions, streamUsage: boolean): AsyncGenerator<ChatStreamEvent, void, undefined> {
  const timeoutMs = options.timeoutMs ?? connection.timeoutMs;
  const deadline = startDeadline(timeoutMs, options.signal);
  const context = callContext(connection, 'streamed chat completion', deadline, timeoutMs);
  let chunks: AsyncIterator<unknown> | undefined;
  let finished = false;
  try {
    chunks = await openStream(connection, options, streamUsage, context);
    const reply: StreamedReply = { text: '', finishReason: undefined, usage: undefined, model: connection.model, calls: new StreamedToolCalls() };
    for (;;) {
      const next = await nextChunk(chunks, context);
      if (next.done === true) break;
      deadline.pause();
      const delta = readChunk(reply, next.value, context);
      if (delta !== '') yield { type: 'delta', text: delta };
    }
    finished = true;
    yield { type: 'done', text: reply.text, usage: toUsage(reply.usage), model: reply.model, finishReason: toFinishReason(reply.finishReason), toolCalls: finishedCalls(reply, context) };
  } finally {
    deadline.dispose();
    // Leaving the loop early closes the response instead of reading it to the end. Not awaited:
    // after a time-out the client's own read may still be settling.
    if (!finished) void chunks?.return?.().catch(() => undefined);
  }
}

async function openStream(connection: OpenAiConnection, options: StreamOptions, streamUsage: boolean, context: CallContext): Promise<AsyncIterator<unknown>> {
  const { deadline } = context;
  try {
    const stream = await deadline.race(
      connection.client.chat.completions.create(streamRequest(connection.model, options, streamUsage), { signal: deadline.signal, timeout: context.timeoutMs }),
    );
    return stream[Symbol.asyncIterator]();
  } catch (error) {
    throw toModelError(error, context);
  }
}

/** Wait for the next chunk, with the clock started again for this wait. */
async function nextChunk(chunks: AsyncIterator<unknown>, context: CallContext): Promise<IteratorResult<unknown>> {
  const { deadline } = context;
  deadline.restart();
  let next: IteratorResult<unknown>;
  try {
    next = await deadline.race(chunks.next());
  } catch (error) {
    throw toModelError(error, context);
  }
  // The client ends a stream quietly when its signal aborts; that is still a time-out or a cancellation.
  if (deadline.signal.aborted) throw toModelError(deadline.signal.reason, context);
  return next;
}

/** Fold a chunk into the reply; returns the text it adds ('' for none). */
function readChunk(reply: StreamedReply, value: unknown, context: CallContext): string {
  const parsed = chunkShape.safeParse(value);
  if (!parsed.success) throw invalidOutput(context, firstIssue(parsed.error));
  reply.model = parsed.data.model ?? reply.model;
  reply.usage = parsed.data.usage ?? reply.usage;
  const [choice] = parsed.data.choices;
  reply.finishReason = choice?.finish_reason ?? reply.finishReason;
  for (const piece of choice?.delta?.tool_calls ?? []) reply.calls.add(piece);
  const delta = choice?.delta?.content;
  if (typeof delta !== 'string' || delta === '') return '';
  reply.text += delta;
  return delta;
}

/** The streamed tool calls in index order, each complete: a call that never got an id or a name is an unusable answer. */
function finishedCalls(reply: StreamedReply, context: CallContext): ToolCall[] {
  const calls = reply.calls.list();
  const broken = calls.find((call) => call.id === '' || call.name === '');
  if (broken !== undefined) throw invalidOutput(context, `a streamed tool call came without ${broken.id === '' ? 'an id' : 'a name'}`);
  return calls;
}

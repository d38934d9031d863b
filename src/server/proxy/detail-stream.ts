/**
 * A streamed proxied answer with the detail protocol on. The client gets one SSE stream; behind it the
 * upstream is asked round by round. Each round's chunks are passed on as they come, rewritten only where
 * they must be: text that might be the start of a marker is held back until it is ruled out (a marker
 * never reaches the client), the detail tools' calls are taken out (the client's own are numbered on
 * from 0), and the chunk that ends the round, with what follows it, waits until the round is known to
 * stand. A round that asked for detail ends silently and the next one streams on; the last round's end
 * goes out with the usage of every round. Chunks of other choices (n > 1) pass unchanged.
 */
import { MarkerFilter, type DetailRequest } from '../../core/detail-markers.js';
import type { ToolCall } from '../../core/types.js';
import { DETAIL_TOOL_NAMES } from '../../memory/detail-tools.js';
import type { ChatBody } from './chat-request.js';
import { addUsage } from './detail-plain.js';
import type { DetailExchange } from './detail-exchange.js';
import type { CapturedReply } from './stream-capture.js';

interface ToolDelta {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

interface Chunk {
  id?: unknown;
  created?: unknown;
  model?: unknown;
  choices?: Array<{ index?: number; delta?: { role?: unknown; content?: unknown; tool_calls?: ToolDelta[] }; finish_reason?: unknown }>;
  usage?: Record<string, unknown> | null;
}

const encoder = new TextEncoder();
const event = (data: string): Uint8Array => encoder.encode(`data: ${data}\n\n`);

/** One round's stream as it is read: what is shown, the calls made, the end held back. */
class RoundReader {
  text = '';
  private readonly filter: MarkerFilter | null;
  private readonly calls = new Map<number, ToolCall>();
  /** Index of each client call as the client sees it (detail calls taken out). */
  private readonly callerIndex = new Map<number, number>();
  /** The round's end and what came after it, sent only if the round stands. */
  readonly held: string[] = [];
  usage: Record<string, unknown> | null = null;
  private last: Chunk = {};

  constructor(markers: boolean) {
    this.filter = markers ? new MarkerFilter() : null;
  }

  get toolCalls(): ToolCall[] {
    return [...this.calls.values()];
  }

  get requests(): readonly DetailRequest[] {
    return this.filter?.requests ?? [];
  }

  /** The client's form of one upstream `data:` payload, or null when nothing of it is to be sent now. */
  take(data: string): string | null {
    if (data === '[DONE]') return this.hold(data);
    let chunk: Chunk;
    try {
      chunk = JSON.parse(data) as Chunk;
    } catch {
      return this.held.length > 0 ? this.hold(data) : data;
    }
    if (chunk.usage !== undefined && chunk.usage !== null) this.usage = chunk.usage;
    if (this.held.length > 0) return this.hold(data);
    this.last = chunk;
    const choice = chunk.choices?.find((candidate) => (candidate.index ?? 0) === 0);
    if (choice === undefined) return chunk.usage === undefined || chunk.usage === null ? data : this.hold(data);
    let changed = false;
    const delta = choice.delta ?? {};
    if (typeof delta.content === 'string') {
      const shown = this.filter === null ? delta.content : this.filter.push(delta.content);
      this.text += shown;
      if (shown !== delta.content) {
        delta.content = shown;
        changed = true;
      }
    }
    if (Array.isArray(delta.tool_calls)) {
      const own = delta.tool_calls.filter((piece) => this.ownCall(piece));
      changed = true;
      if (own.length > 0) delta.tool_calls = own;
      else delete delta.tool_calls;
    }
    const ends = typeof choice.finish_reason === 'string';
    if (ends) {
      // The end waits; what the same chunk says before it goes now.
      this.held.push(JSON.stringify(chunk));
      choice.finish_reason = null;
      changed = true;
    }
    const empty = (delta.content === undefined || delta.content === '') && delta.tool_calls === undefined && delta.role === undefined;
    if (empty && (ends || changed)) return null;
    return changed ? JSON.stringify(chunk) : data;
  }

  /** Keep a call's piece for the round's outcome; true when the client is to see it (renumbered). */
  private ownCall(piece: ToolDelta): boolean {
    const index = typeof piece.index === 'number' ? piece.index : 0;
    const known = this.calls.get(index) ?? { id: '', name: '', arguments: '' };
    if (typeof piece.id === 'string' && piece.id !== '') known.id = piece.id;
    if (typeof piece.function?.name === 'string' && piece.function.name !== '') known.name = piece.function.name;
    if (typeof piece.function?.arguments === 'string') known.arguments += piece.function.arguments;
    this.calls.set(index, known);
    if (DETAIL_TOOL_NAMES.has(known.name)) return false;
    let shown = this.callerIndex.get(index);
    if (shown === undefined) {
      shown = this.callerIndex.size;
      this.callerIndex.set(index, shown);
    }
    piece.index = shown;
    return true;
  }

  private hold(data: string): null {
    this.held.push(data);
    return null;
  }

  /** The text held back at the round's end that could not be a marker, as a chunk like the round's last. */
  rest(): string | null {
    const rest = this.filter?.end() ?? '';
    if (rest === '') return null;
    this.text += rest;
    const { id, created, model } = this.last;
    return JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta: { content: rest }, finish_reason: null }] });
  }

  /** The held end, with the usage of the rounds before added to any usage it reports, and its finish reason mended when every call it made was a detail tool's. */
  end(earlier: Record<string, unknown> | null): string[] {
    const ownCalls = this.callerIndex.size > 0;
    return this.held.map((data) => {
      if (data === '[DONE]') return data;
      try {
        const chunk = JSON.parse(data) as Chunk;
        if (chunk.usage !== undefined && chunk.usage !== null) chunk.usage = addUsage(earlier, chunk.usage);
        for (const choice of chunk.choices ?? []) if ((choice.index ?? 0) === 0 && choice.finish_reason === 'tool_calls' && !ownCalls) choice.finish_reason = 'stop';
        return JSON.stringify(chunk);
      } catch {
        return data;
      }
    });
  }
}

/** Lines of an SSE byte stream, as they complete. */
async function* sseLines(reader: ReadableStreamDefaultReader<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    pending += decoder.decode(value, { stream: true });
    const lines = pending.split(/\r\n|\r|\n/u);
    pending = lines.pop() ?? '';
    yield* lines;
  }
  pending += decoder.decode();
  if (pending !== '') yield pending;
}

/**
 * The client's stream over the rounds, starting from the first round's answer (already known to be a
 * stream), and the reply to remember once it stands. `next` asks the upstream for a later round; an
 * answer that fails then ends the client's stream with an OpenAI-shaped error event, nothing remembered.
 */
export function streamWithDetail(exchange: DetailExchange, first: Response, next: (body: ChatBody) => Promise<Response>): { body: ReadableStream<Uint8Array>; reply: Promise<CapturedReply> } {
  let settle: (reply: CapturedReply) => void = () => undefined;
  const reply = new Promise<CapturedReply>((resolve) => (settle = resolve));
  let upstream: ReadableStreamDefaultReader<Uint8Array> | null = null;
  let cancelled = false;
  let shown = '';
  let usage: Record<string, unknown> | null = null;
  const pump = async (controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> => {
    let answer = first;
    for (;;) {
      if (answer.body === null) throw new Error('the chat endpoint answered without a body');
      upstream = answer.body.getReader();
      const round = new RoundReader(exchange.form === 'markers');
      for await (const line of sseLines(upstream)) {
        if (cancelled) return;
        if (!line.startsWith('data:')) {
          // Comments and event names pass; the blank line after each event is written with it.
          if (line !== '' && round.held.length === 0) controller.enqueue(encoder.encode(`${line}\n`));
          continue;
        }
        const out = round.take(line.slice(5).trim());
        if (out !== null) controller.enqueue(event(out));
      }
      if (cancelled) return;
      const rest = round.rest();
      shown += round.text;
      const settled = await exchange.settle({ text: round.text, toolCalls: round.toolCalls, requests: round.requests });
      if (!settled.again) {
        if (rest !== null) controller.enqueue(event(rest));
        for (const data of round.end(usage)) controller.enqueue(event(data));
        controller.close();
        settle({ text: shown, finished: round.held.length > 0, toolCalls: settled.callerCalls.length > 0 });
        return;
      }
      usage = addUsage(usage, round.usage);
      answer = await next(await exchange.body());
      if (cancelled) return;
      if (!answer.ok) {
        const detail = (await answer.text()).slice(0, 500);
        controller.enqueue(event(JSON.stringify({ error: { message: `The chat endpoint failed while the context was built again (HTTP ${String(answer.status)}): ${detail}`, type: 'upstream_error', code: 'upstream_failed' } })));
        controller.close();
        settle({ text: '', finished: false, toolCalls: false });
        return;
      }
    }
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      pump(controller).catch((error: unknown) => {
        settle({ text: '', finished: false, toolCalls: false });
        if (!cancelled) controller.error(error);
      });
    },
    async cancel(reason) {
      // The client went away: stop the upstream too, and store nothing.
      cancelled = true;
      settle({ text: '', finished: false, toolCalls: false });
      await upstream?.cancel(reason).catch(() => undefined);
    },
  });
  return { body, reply };
}

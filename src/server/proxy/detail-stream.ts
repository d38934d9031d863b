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
  private readonly calls = new Map<string, ToolCall>();
  /** The call the last piece belonged to. */
  private lastCall: string | null = null;
  /** Index of each client call as the client sees it (detail calls taken out). */
  private readonly callerIndex = new Map<string, number>();
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
    if (typeof choice.finish_reason === 'string') {
      // The end waits (with the usage the chunk reports); what the chunk says before it goes now.
      const { usage, ...rest } = chunk;
      this.held.push(JSON.stringify({ ...rest, choices: [{ index: 0, delta: {}, finish_reason: choice.finish_reason }], ...(usage === undefined ? {} : { usage }) }));
      choice.finish_reason = null;
      delete chunk.usage;
      changed = true;
    }
    const empty = (delta.content === undefined || delta.content === '') && delta.tool_calls === undefined && delta.role === undefined;
    if (empty && changed) return null;
    return changed ? JSON.stringify(chunk) : data;
  }

  /**
   * Keep a call's piece for the round's outcome; true when the client is to see it (renumbered from 0).
   * Pieces name their call by `index`; a provider that leaves it out names each call by its id, and a
   * piece with neither continues the call before it.
   */
  private ownCall(piece: ToolDelta): boolean {
    const key = typeof piece.index === 'number' ? `index ${String(piece.index)}` : typeof piece.id === 'string' && piece.id !== '' ? `id ${piece.id}` : (this.lastCall ?? 'index 0');
    this.lastCall = key;
    const known = this.calls.get(key) ?? { id: '', name: '', arguments: '' };
    if (typeof piece.id === 'string' && piece.id !== '') known.id = piece.id;
    if (typeof piece.function?.name === 'string' && piece.function.name !== '') known.name = piece.function.name;
    if (typeof piece.function?.arguments === 'string') known.arguments += piece.function.arguments;
    this.calls.set(key, known);
    if (DETAIL_TOOL_NAMES.has(known.name)) return false;
    let shown = this.callerIndex.get(key);
    if (shown === undefined) {
      shown = this.callerIndex.size;
      this.callerIndex.set(key, shown);
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
      // An event's other fields (`event:`, `id:`) go out with its data, or not at all when the data is held.
      let fields: string[] = [];
      for await (const line of sseLines(upstream)) {
        if (cancelled) return;
        if (line.startsWith(':')) {
          if (round.held.length === 0) controller.enqueue(encoder.encode(`${line}\n`));
          continue;
        }
        if (!line.startsWith('data:')) {
          if (line !== '') fields.push(line);
          continue;
        }
        const out = round.take(line.slice(5).trim());
        if (out !== null) controller.enqueue(encoder.encode(`${fields.map((field) => `${field}\n`).join('')}data: ${out}\n\n`));
        fields = [];
      }
      if (cancelled) return;
      // Text held back that turned out to be no marker is shown whether or not the model asked.
      const rest = round.rest();
      if (rest !== null) controller.enqueue(event(rest));
      shown += round.text;
      const settled = await exchange.settle({ text: round.text, toolCalls: round.toolCalls, requests: round.requests });
      if (!settled.again) {
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

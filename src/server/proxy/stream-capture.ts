/**
 * Passes an upstream's SSE stream to the client byte for byte while reading the assistant's text out of
 * a copy, so the reply can be stored once the stream has ended.
 */

/** What the stream said, known once it has ended. */
export interface CapturedReply {
  text: string;
  /** The stream reached its end (`[DONE]` or a finish reason), rather than breaking off. */
  finished: boolean;
  /** The reply asked for tool calls: the turn goes on once the client sends their results. */
  toolCalls: boolean;
}

interface ChunkShape {
  choices?: Array<{ index?: unknown; delta?: { content?: unknown; tool_calls?: unknown }; finish_reason?: unknown }>;
}

/** Whether a message or delta asks for tool calls (some providers send `tool_calls: null` or `[]` in every delta). */
function asksForTools(value: { tool_calls?: unknown } | undefined): boolean {
  return Array.isArray(value?.tool_calls) && value.tool_calls.length > 0;
}

/** The reply of a plain (not streamed) completion: the first choice's text, and whether it asked for tool calls. */
export function completionReply(text: string): CapturedReply {
  try {
    const message = (JSON.parse(text) as { choices?: Array<{ message?: { content?: unknown; tool_calls?: unknown } }> }).choices?.[0]?.message;
    return { text: typeof message?.content === 'string' ? message.content : '', finished: true, toolCalls: asksForTools(message) };
  } catch {
    // Not a completion: there is no reply to remember.
    return { text: '', finished: false, toolCalls: false };
  }
}

/** The client's copy of `source`, unchanged, and the reply read from it. */
export function captureStream(source: ReadableStream<Uint8Array>): { body: ReadableStream<Uint8Array>; reply: Promise<CapturedReply> } {
  const decoder = new TextDecoder();
  const captured: CapturedReply = { text: '', finished: false, toolCalls: false };
  let pending = '';
  let settle: (reply: CapturedReply) => void = () => undefined;
  const reply = new Promise<CapturedReply>((resolve) => {
    settle = resolve;
  });
  const readLine = (line: string): void => {
    if (!line.startsWith('data:')) return;
    const data = line.slice(5).trim();
    if (data === '[DONE]') {
      captured.finished = true;
      return;
    }
    let chunk: ChunkShape;
    try {
      chunk = JSON.parse(data) as ChunkShape;
    } catch {
      return;
    }
    // With several choices (n > 1), the first is the reply remembered.
    const choice = chunk.choices?.find((candidate) => (candidate.index ?? 0) === 0);
    if (typeof choice?.delta?.content === 'string') captured.text += choice.delta.content;
    if (asksForTools(choice?.delta)) captured.toolCalls = true;
    if (typeof choice?.finish_reason === 'string') captured.finished = true;
  };
  const read = (text: string): void => {
    pending += text;
    const lines = pending.split(/\r\n|\r|\n/u);
    pending = lines.pop() ?? '';
    for (const line of lines) readLine(line);
  };
  const reader = source.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (error) {
        // The upstream broke off: the client sees the error, and nothing is stored.
        settle({ ...captured, finished: false });
        controller.error(error);
        return;
      }
      if (next.done) {
        read(`${decoder.decode()}\n`);
        settle({ ...captured });
        controller.close();
        return;
      }
      controller.enqueue(next.value);
      read(decoder.decode(next.value, { stream: true }));
    },
    async cancel(reason) {
      // The client went away: stop the upstream too, and store nothing.
      settle({ ...captured, finished: false });
      await reader.cancel(reason);
    },
  });
  return { body, reply };
}

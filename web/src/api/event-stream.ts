/**
 * Server-Sent Events read from a fetch response (EventSource cannot POST or send an API key): yields
 * each event's name and data once its blank line has arrived.
 */
export interface StreamEvent {
  event: string;
  data: string;
}

/** Splits one event block into its name (default `message`) and its data lines joined by newlines. */
function parseBlock(block: string): StreamEvent | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length === 0 ? null : { event, data: data.join('\n') };
}

export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end: RegExpExecArray | null;
      while ((end = /\r?\n\r?\n/.exec(buffer)) !== null) {
        const parsed = parseBlock(buffer.slice(0, end.index));
        buffer = buffer.slice(end.index + end[0].length);
        if (parsed !== null) yield parsed;
      }
    }
    const last = parseBlock(buffer + decoder.decode());
    if (last !== null) yield last;
  } finally {
    reader.releaseLock();
  }
}

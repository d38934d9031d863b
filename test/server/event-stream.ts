/** Reading a Server-Sent Events answer over HTTP as a client does: events parsed as their bytes arrive. */

/** One event: its name (`message` when the stream names none) and its `data` parsed as JSON. */
export interface ServerSentEvent {
  event: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an event's shape is what the test asserts
  data: any;
}

/** Parse one event block (the lines between blank lines); null for a block of comments only. */
function parseBlock(block: string): ServerSentEvent | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /u, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length === 0 ? null : { event, data: JSON.parse(data.join('\n')) };
}

/**
 * The events of a `text/event-stream` body, each yielded as soon as its closing blank line has arrived.
 * Leaving the loop early cancels the body, which closes the connection: the client going away.
 */
export async function* serverSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  let ended = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffered = (buffered + (done ? decoder.decode() : decoder.decode(value, { stream: true }))).replace(/\r\n|\r(?!$)/gu, '\n');
      let end = buffered.indexOf('\n\n');
      while (end >= 0) {
        const parsed = parseBlock(buffered.slice(0, end));
        buffered = buffered.slice(end + 2);
        if (parsed !== null) yield parsed;
        end = buffered.indexOf('\n\n');
      }
      if (done) break;
    }
    ended = true;
    if (buffered.trim() !== '') throw new Error(`The event stream ended inside an event: ${buffered.slice(0, 200)}`);
  } finally {
    if (ended) reader.releaseLock();
    else await reader.cancel().catch(() => undefined);
  }
}

/** Every event of the body, once the stream has ended. */
export async function allEvents(body: ReadableStream<Uint8Array>): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  for await (const event of serverSentEvents(body)) events.push(event);
  return events;
}

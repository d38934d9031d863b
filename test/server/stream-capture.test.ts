import { describe, expect, it } from 'vitest';
import { BackgroundWork } from '../../src/server/background-work.js';
import { captureStream, completionReply } from '../../src/server/proxy/stream-capture.js';

/** A byte stream of `pieces`, one chunk each. */
function source(pieces: readonly string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
}

async function through(pieces: readonly string[]): Promise<{ copy: string; reply: Awaited<ReturnType<typeof captureStream>['reply']> }> {
  const captured = captureStream(source(pieces));
  const copy = await new Response(captured.body).text();
  return { copy, reply: await captured.reply };
}

const delta = (content: unknown, extra: Record<string, unknown> = {}): string => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content, ...extra }, finish_reason: null }] })}`;

describe('captureStream', () => {
  it('hands the client every byte unchanged and reads the reply, whatever the chunk boundaries and line endings', async () => {
    const text = [delta('The van '), delta('comes at 8.'), 'data: [DONE]', ''].join('\r\n\r\n');
    const cut = [text.slice(0, 7), text.slice(7, 50), text.slice(50, 51), text.slice(51)];
    const { copy, reply } = await through(cut);
    expect(copy).toBe(text);
    expect(reply).toEqual({ text: 'The van comes at 8.', finished: true, toolCalls: false });
    const carriageReturns = await through([[delta('Old '), delta('Mac line ends.'), 'data: [DONE]', ''].join('\r\r')]);
    expect(carriageReturns.reply.text).toBe('Old Mac line ends.');
  });

  it('remembers the first choice only, and takes tool_calls: null for no tool call', async () => {
    const second = `data: ${JSON.stringify({ choices: [{ index: 1, delta: { content: 'B1 ' } }] })}`;
    const { reply } = await through([[delta('A1 ', { tool_calls: null }), second, delta('A2'), 'data: [DONE]', ''].join('\n\n')]);
    expect(reply).toEqual({ text: 'A1 A2', finished: true, toolCalls: false });
    const tools = await through([[delta(null, { tool_calls: [{ index: 0, id: 'call_1', function: { name: 'f', arguments: '' } }] }), 'data: [DONE]', ''].join('\n\n')]);
    expect(tools.reply.toolCalls).toBe(true);
  });

  it('calls a stream that breaks off unfinished, and a cancelled one too', async () => {
    const broken = await through([`${delta('Half a ')}\n\n`]);
    expect(broken.reply.finished).toBe(false);
    const captured = captureStream(source([`${delta('Never read')}\n\n`]));
    await captured.body.cancel('client went away');
    expect((await captured.reply).finished).toBe(false);
  });

  it('reads a plain completion, and nothing from a body that is not one', () => {
    expect(completionReply(JSON.stringify({ choices: [{ message: { content: 'Done.', tool_calls: [] } }] }))).toEqual({ text: 'Done.', finished: true, toolCalls: false });
    expect(completionReply('<html>bad gateway</html>')).toEqual({ text: '', finished: false, toolCalls: false });
  });
});

describe('BackgroundWork', () => {
  it('runs the work of one key in order, lets another key go on, and drains everything', async () => {
    const order: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const work = new BackgroundWork();
    work.run('acme\u0000chat-1', async () => {
      await gate;
      order.push('acme first');
    });
    work.run('acme\u0000chat-1', async () => {
      order.push('acme second');
    });
    work.run('globex\u0000chat-1', async () => {
      order.push('globex');
    });
    await work.idle('globex\u0000chat-1', 60_000);
    expect(order).toEqual(['globex']);
    release();
    await work.drain();
    expect(order).toEqual(['globex', 'acme first', 'acme second']);
  });
});

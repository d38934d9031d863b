/**
 * Work after an answer waits for the answer to have left: on Node's HTTP server, until the response has
 * finished (or its connection closed); elsewhere, until the next turn of the event loop.
 */
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeResponseOf, responseSent } from '../../src/server/response-sent.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A server whose one route hands its response to `handle`; resolves to its URL. */
async function serve(handle: (response: ServerResponse) => void): Promise<string> {
  const server = createServer((_request, response) => handle(response));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
}

describe('responseSent', () => {
  it('resolves only once the response has finished, not when its first bytes go', async () => {
    const events: string[] = [];
    let sent: Promise<void> = Promise.resolve();
    const url = await serve((response) => {
      sent = responseSent(response).then(() => {
        events.push('sent');
      });
      response.on('finish', () => events.push('finish'));
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: one\n\n');
      setTimeout(() => {
        events.push('end');
        response.end('data: [DONE]\n\n');
      }, 40);
    });
    const answer = await fetch(url);
    expect(await answer.text()).toBe('data: one\n\ndata: [DONE]\n\n');
    await sent;
    expect(events).toEqual(['end', 'finish', 'sent']);
  });

  it('resolves when the client goes away before the end', async () => {
    let sent: Promise<string> = Promise.resolve('never served');
    const served = new Promise<void>((resolve) => {
      void serve((response) => {
        sent = responseSent(response).then(() => (response.writableFinished ? 'finished' : 'closed'));
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write('data: one\n\n');
        resolve();
      }).then(async (url) => {
        const controller = new AbortController();
        const answer = await fetch(url, { signal: controller.signal });
        await answer.body?.getReader().read();
        controller.abort();
      });
    });
    await served;
    await expect(sent).resolves.toBe('closed');
  });

  it('resolves at once for a response already finished, and after a turn of the loop without one', async () => {
    const url = await serve((response) => response.end('done'));
    expect(await (await fetch(url)).text()).toBe('done');
    const finished = { writableFinished: true, destroyed: false, once: () => undefined } as unknown as ServerResponse;
    await expect(responseSent(finished)).resolves.toBeUndefined();
    let later = false;
    const waiting = responseSent(undefined).then(() => later);
    later = true;
    await expect(waiting).resolves.toBe(true);
  });
});

describe('nodeResponseOf', () => {
  it('finds the Node response @hono/node-server passes, and nothing in other environments', async () => {
    let found: ServerResponse | undefined;
    const url = await serve((response) => {
      found = nodeResponseOf({ incoming: {}, outgoing: response });
      response.end();
    });
    await (await fetch(url)).text();
    expect(found).toBeDefined();
    expect(nodeResponseOf(undefined)).toBeUndefined();
    expect(nodeResponseOf({})).toBeUndefined();
    expect(nodeResponseOf({ outgoing: 'not a response' })).toBeUndefined();
  });
});

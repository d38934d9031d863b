/** A REST app over a fresh memory, with a key per tenant and a one-line way to call it. */
import { createApp, type AppOptions } from '../../src/server/create-app.js';
import type { RequestLogEntry } from '../../src/server/observe-requests.js';
import type { Memory, MemoryOptions } from '../../src/memory/memory-api.js';
import { testMemory } from '../support/memory-fixtures.js';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON); tests read it field by field. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an answer's shape is what the test asserts
  json: any;
}

export interface CallOptions {
  /** The API key to send (none when absent). */
  key?: string;
  /** A JSON body (serialised here) or a raw string. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TestServer {
  memory: Memory;
  logs: RequestLogEntry[];
  /** A live key of `tenant` (made on first use). */
  keyOf(tenant: string): Promise<string>;
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
  cleanup(): Promise<void>;
}

export async function testServer(options: Partial<AppOptions> = {}, memoryOptions: MemoryOptions = {}): Promise<TestServer> {
  const { memory, cleanup } = testMemory(memoryOptions);
  const logs: RequestLogEntry[] = [];
  const app = createApp({ memory, log: (entry) => logs.push(entry), ...options });
  const keys = new Map<string, string>();
  return {
    memory,
    logs,
    keyOf: async (tenant) => {
      let key = keys.get(tenant);
      if (key === undefined) {
        key = (await memory.keys.create({ tenant, name: 'test' })).key;
        keys.set(tenant, key);
      }
      return key;
    },
    call: async (method, path, callOptions = {}) => {
      const headers: Record<string, string> = { ...callOptions.headers };
      if (callOptions.key !== undefined) headers.authorization = `Bearer ${callOptions.key}`;
      let body: string | undefined;
      if (callOptions.body !== undefined) {
        body = typeof callOptions.body === 'string' ? callOptions.body : JSON.stringify(callOptions.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await app.request(path, { method, headers, ...(body === undefined ? {} : { body }) });
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, text, json };
    },
    cleanup,
  };
}

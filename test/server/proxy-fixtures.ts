/** A running server with the proxy in front of a scripted upstream, and an official OpenAI client for it. */
import OpenAI from 'openai';
import type { MemoryManager } from '../../src/managers/memory-manager.js';
import type { Memory } from '../../src/memory/memory-api.js';
import { startServer, type RunningServer } from '../../src/server/start-server.js';
import { testMemory } from '../support/memory-fixtures.js';
import { startScriptedServer, type ScriptEntry, type ScriptedServer } from '../support/scripted-openai-server.js';

export interface ProxyRig {
  memory: Memory;
  server: RunningServer;
  upstream: ScriptedServer;
  key: string;
  /** An OpenAI client pointed at the proxy with the rig's key (and these extra options). */
  client(options?: { session?: string; query?: Record<string, string> }): OpenAI;
  close(): Promise<void>;
}

export async function proxyRig(script: ScriptEntry[] = [], env: Record<string, string> = {}, manager?: MemoryManager): Promise<ProxyRig> {
  const upstream = await startScriptedServer({ script });
  const { memory, cleanup } = testMemory({ env: { STRATA_CHAT_MODEL: 'scripted-model', STRATA_CHAT_BASE_URL: upstream.baseUrl, ...env }, ...(manager === undefined ? {} : { manager }) });
  const key = (await memory.keys.create({ tenant: 'default', name: 'proxy test' })).key;
  const server = await startServer({ memory, port: 0 });
  return {
    memory,
    server,
    upstream,
    key,
    client: (options = {}) =>
      new OpenAI({
        apiKey: key,
        baseURL: `${server.url}/v1`,
        maxRetries: 0,
        ...(options.session === undefined ? {} : { defaultHeaders: { 'X-Strata-Session': options.session } }),
        ...(options.query === undefined ? {} : { defaultQuery: options.query }),
      }),
    close: async () => {
      await server.close();
      await upstream.close();
      await cleanup();
    },
  };
}

/** The messages the upstream received in its `index`-th request. */
export function upstreamMessages(upstream: ScriptedServer, index: number): Array<{ role: string; content: unknown; tool_calls?: unknown; tool_call_id?: string }> {
  const body = upstream.requests.filter((request) => request.path === '/v1/chat/completions')[index]?.body as { messages?: Array<{ role: string; content: unknown }> } | undefined;
  return body?.messages ?? [];
}

/** A scripted server that answers every request with a chooser, and a memory model manager on it. */
import type { ModelMemoryManager } from '../src/managers/model/index.js';
import { createModelMemoryManager } from '../src/memory/model-memory-manager.js';
import { createOpenAiChatModel } from '../src/providers/openai/openai-chat-model.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer, type ScriptedStep } from '../test/support/scripted-openai-server.js';

/** Start a scripted server whose script never runs out: every request is answered by `choose`. */
export async function startChoosingServer(choose: (request: RecordedRequest) => ScriptedStep): Promise<ScriptedServer> {
  const server = await startScriptedServer();
  const entry = (request: RecordedRequest): ScriptedStep => {
    server.push(entry);
    return choose(request);
  };
  server.push(entry);
  return server;
}

/** The model memory manager over a scripted memory model; the client never retries by itself. */
export function scriptedMemoryManager(server: ScriptedServer, timeoutMs: number): ModelMemoryManager {
  const model = createOpenAiChatModel({ baseUrl: server.baseUrl, model: 'scripted-memory', role: 'memory', maxRetries: 0, timeoutMs, fetch });
  return createModelMemoryManager({ model, timeoutMs });
}

/**
 * `strata chat` in a pseudo-terminal (util-linux `script` gives the process a terminal; keys are typed
 * into it): line editing, history across runs, Ctrl-C during a streamed reply and at the prompt, and the
 * chat's own commands. What the session stores is checked afterwards through the library.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemory } from '../../src/memory/create-memory.js';
import { bundledChild } from '../support/bundle.js';
import { startScriptedServer, type ScriptedServer } from '../support/scripted-openai-server.js';

const KEYS = { left: '\u001b[D', up: '\u001b[A', enter: '\r', ctrlC: '\u0003', ctrlD: '\u0004' };

let dir: string;
let bundled: Awaited<ReturnType<typeof bundledChild>> | undefined;
let server: ScriptedServer | undefined;

beforeAll(async () => {
  bundled = await bundledChild('test/cli/chat-child.ts');
  dir = mkdtempSync(join(tmpdir(), 'strata-chat-pty-'));
}, 60_000);

afterAll(async () => {
  await server?.close();
  bundled?.remove();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** A chat in a pseudo-terminal: what it has printed so far, keys to type, and its exit. */
class TerminalChat {
  output = '';
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcessWithoutNullStreams;

  constructor(args: string[], env: Record<string, string>) {
    const command = [process.execPath, bundled?.path ?? '', ...args].map((part) => `'${part.replace(/'/gu, "'\\''")}'`).join(' ');
    this.child = spawn('script', ['-qfec', command, '/dev/null'], { env: { ...process.env, ...env, TERM: 'xterm', COLUMNS: '200' } });
    this.child.stdout.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.child.stderr.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolve) => this.child.on('close', resolve));
  }

  /** Type text and keys one after another, as a person does (a terminal sends each key on its own). */
  async type(...keys: string[]): Promise<void> {
    for (const key of keys) {
      this.child.stdin.write(key);
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
  }

  /** Resolves once the output holds `text` `count` times (or fails after a while, showing the output). */
  async waitFor(text: string, count = 1): Promise<void> {
    for (let waited = 0; waited < 20_000; waited += 20) {
      if (this.output.split(text).length - 1 >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`waited for ${JSON.stringify(text)} ×${count}; the terminal shows:\n${this.output}`);
  }
}

const userMessages = (requests: ScriptedServer['requests']): string[] =>
  requests.flatMap((request) => {
    const messages = (request.body as { messages?: Array<{ role: string; content: string }> }).messages ?? [];
    return messages.at(-1)?.role === 'user' ? [messages.at(-1)?.content ?? ''] : [];
  });

describe('strata chat on a terminal', () => {
  it('edits lines in place, stops a streamed reply on Ctrl-C, keeps history across runs, and stores only what was sent', async () => {
    server = await startScriptedServer({
      script: [
        { reply: 'Hello there.' },
        { slowStream: { chunks: Array.from({ length: 100 }, (_, index) => `word${index} `), intervalMs: 100 } },
        { reply: 'A short story.' },
        { reply: 'Again, briefly.' },
      ],
    });
    const db = join(dir, 'chat.db');
    const env = { STRATA_CHAT_MODEL: 'scripted-chat', STRATA_CHAT_BASE_URL: server.baseUrl, STRATA_LOG_LEVEL: 'silent' };
    const first = new TerminalChat(['chat', '--db', db], env);
    await first.waitFor('you> ');
    // "hello wrld", three steps left, the missing "o": the arrows edit the line, they are not sent.
    await first.type('hello wrld', KEYS.left, KEYS.left, KEYS.left, 'o', KEYS.enter);
    await first.waitFor('[turn 1');
    await first.waitFor('you> ', 2);
    await first.type('tell me a long story', KEYS.enter);
    await first.waitFor('word2 ');
    await first.type(KEYS.ctrlC);
    await first.waitFor('Reply stopped');
    await first.waitFor('you> ', 3);
    // ↑ brings the stopped message back; sent again, it gets its answer.
    await first.type(KEYS.up, KEYS.enter);
    await first.waitFor('[turn 2');
    await first.type('/session', KEYS.enter);
    await first.waitFor('2 turns');
    await first.type(KEYS.ctrlC);
    expect(await first.exited).toBe(0);
    const sessionId = /Chatting in session (\S+);/u.exec(first.output)?.[1] ?? '';
    expect(sessionId).not.toBe('');
    expect(first.output).toContain('2 turns stored this time');

    // A later run of the same session: ↑ walks back through the lines typed before.
    const second = new TerminalChat(['chat', sessionId, '--db', db], env);
    await second.waitFor('you> ');
    await second.type(KEYS.up, KEYS.up, KEYS.enter);
    await second.waitFor('[turn 3');
    await second.type(KEYS.ctrlD);
    expect(await second.exited).toBe(0);

    // The model got the edited line, the stopped message, the same message again and the recalled one; /session never.
    expect(userMessages(server.requests)).toEqual(['hello world', 'tell me a long story', 'tell me a long story', 'tell me a long story']);
    const memory = createMemory({ path: db, env: { STRATA_LOG_LEVEL: 'silent' } });
    try {
      const session = await memory.sessions.open(sessionId);
      const stored = (await session.messages()).filter((message) => message.role === 'user').map((message) => message.content);
      expect(stored).toEqual(['hello world', 'tell me a long story', 'tell me a long story']);
    } finally {
      await memory.close();
    }
  }, 60_000);
});

import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../support/scripted-openai-server.js';
import { createWorkspace, type Workspace } from './helpers.js';

function input(...lines: string[]): Readable {
  return Readable.from(lines.map((line) => `${line}\n`));
}

/** A recorded conversation file: user and assistant messages alternating, from the user's first. */
function recorded(workspace: Workspace, name: string, contents: string[]): string {
  return workspace.write(name, JSON.stringify(contents.map((content, index) => ({ role: index % 2 === 0 ? 'user' : 'assistant', content }))));
}

describe('strata chat', () => {
  let workspace: Workspace;
  let server: ScriptedServer | undefined;
  beforeEach(() => {
    workspace = createWorkspace();
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    workspace.cleanup();
  });

  const chatEnv = (baseUrl: string): Record<string, string> => ({ STRATA_CHAT_MODEL: 'scripted-chat', STRATA_CHAT_BASE_URL: baseUrl });

  it('chats turn by turn, streaming replies and showing the context tokens of every turn', async () => {
    server = await startScriptedServer({
      script: [{ slowStream: { chunks: ['Noted: ', 'the budget is $40,000.'], intervalMs: 2 } }, { reply: 'It is $40,000.' }],
    });
    const result = await workspace.run(['chat', '--budget', '3000'], {
      env: chatEnv(server.baseUrl),
      stdin: input('Our budget for the migration is $40,000, and that is final.', '', 'What is the budget?', '/exit', 'never sent'),
    });
    expect(result.stderr).toContain('Chatting in session');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('assistant> Noted: the budget is $40,000.');
    expect(result.stdout).toContain('assistant> It is $40,000.');
    expect(result.stdout).toMatch(/\[turn 1 · context \d+ \/ 3,000 tokens · memory fresh\]/u);
    expect(result.stdout).toMatch(/\[turn 2 · context \d+ \/ 3,000 tokens · memory /u);
    expect(server.requests.length).toBe(2);
    // The second request carried the first turn.
    const second = server.requests[1]?.body as { messages: Array<{ content: string }> };
    expect(second.messages.some((message) => message.content.includes('$40,000, and that is final'))).toBe(true);

    const sessions = await workspace.run(['sessions', '--json']);
    const [session] = JSON.parse(sessions.stdout) as Array<{ id: string; messageCount: number }>;
    expect(session?.messageCount).toBe(4);
  });

  it('prints one JSON line per turn with --json', async () => {
    server = await startScriptedServer({ script: [{ reply: 'Hello!' }] });
    const result = await workspace.run(['chat', '--json'], { env: chatEnv(server.baseUrl), stdin: input('Hi') });
    expect(result.code).toBe(0);
    const line = JSON.parse(result.stdout.trim()) as Record<string, unknown>;
    expect(Object.keys(line)).toEqual(['sessionId', 'turn', 'reply', 'contextTokens', 'budget', 'staleMemory']);
    expect(line).toMatchObject({ turn: 1, reply: 'Hello!', budget: 30_000, staleMemory: false });
    const [session] = JSON.parse((await workspace.run(['sessions', '--json'])).stdout) as Array<{ id: string }>;
    expect(line.sessionId).toBe(session?.id);
  });

  it('answers its own commands without sending them to the model, and counts the session\'s turns at the end', async () => {
    server = await startScriptedServer({ script: [{ reply: 'Noted, $40,000.' }, { reply: 'Still $40,000.' }] });
    const first = await workspace.run(['chat', '--budget', '2000'], {
      env: chatEnv(server.baseUrl),
      stdin: input('Our budget is $40,000 and we must never store card numbers.', '/help', '/facts', '/session', '/context 500', '/export md', '/frobnicate', '/quit', 'never sent'),
    });
    expect(first.code).toBe(0);
    expect(server.requests.length).toBe(1);
    expect(first.stdout).toContain('/context [budget]');
    expect(first.stdout).toMatch(/2 facts:\nPinned exceptions:\n {2}- card numbers[^\n]*\n[^\n]*\n {2}- budget: \$40,000/u);
    expect(first.stdout).toMatch(/Session \S+: ".*", 1 turn, [\d,]+ tokens of text\./u);
    expect(first.stdout).toMatch(/\/ 500 tokens/u);
    expect(first.stdout).toContain('Our budget is $40,000');
    expect(first.stdout).toContain('Unknown command /frobnicate');
    const [session] = JSON.parse((await workspace.run(['sessions', '--json'])).stdout) as Array<{ id: string; messageCount: number }>;
    expect(session?.messageCount).toBe(2);
    // Continuing the session: the count at the end is the session's, not only this run's.
    const second = await workspace.run(['chat', session?.id ?? ''], { env: chatEnv(server.baseUrl), stdin: input('And the budget?') });
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(`1 turn stored this time; session ${session?.id} holds 2 turns.`);
  });

  it('keeps no new session when no turn could be stored', async () => {
    server = await startScriptedServer({ script: [{ status: 400, body: { error: { message: 'bad request' } } }] });
    const result = await workspace.run(['chat'], { env: chatEnv(server.baseUrl), stdin: input('Hello') });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the new session was not kept');
    expect(JSON.parse((await workspace.run(['sessions', '--json'])).stdout)).toEqual([]);
  });

  it('keeps going after a failed call, and stores nothing for it', async () => {
    server = await startScriptedServer({ script: [{ status: 400, body: { error: { message: 'bad request' } } }, { reply: 'Second try works.' }] });
    const result = await workspace.run(['chat'], { env: chatEnv(server.baseUrl), stdin: input('First', 'Second') });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/strata: .*scripted-chat|strata: .*400/u);
    expect(result.stdout).toContain('assistant> Second try works.');
    const sessions = JSON.parse((await workspace.run(['sessions', '--json'])).stdout) as Array<{ messageCount: number }>;
    expect(sessions[0]?.messageCount).toBe(2);
  });

  it('says how to configure a chat model, with exit code 2 and nothing created', async () => {
    const result = await workspace.run(['chat'], { env: {}, stdin: input('Hello') });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('STRATA_CHAT_MODEL');
    const sessions = await workspace.run(['sessions', '--json']);
    expect(JSON.parse(sessions.stdout)).toEqual([]);
  });

  it('replays a recorded conversation through the memory manager, without a chat model', async () => {
    const file = recorded(workspace, 'recorded.json', [
      'The budget for the office move is $12,000 and the deadline is May 2.',
      'Noted: $12,000 and May 2.',
      'Actually, the budget changed to $15,000.',
      'Updated: $15,000.',
    ]);
    const result = await workspace.run(['chat', '--replay', file, '--title', 'Office move'], { env: {} });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/turn 1 \(1\/2\): summarised/u);
    expect(result.stdout).toMatch(/Replayed 2 turns into session \S+: 2 summarised; \d+ facts? in the base truth\./u);
    const json = await workspace.run(['chat', '--replay', file, '--json'], { env: {} });
    const summary = JSON.parse(json.stdout) as { turns: number; statuses: Record<string, number>; facts: number };
    expect(summary.turns).toBe(2);
    expect(summary.statuses).toEqual({ summarised: 2 });
    expect(summary.facts).toBeGreaterThan(0);
  });

  it("writes the engine's logs to the stderr it was given, at STRATA_LOG_LEVEL", async () => {
    const file = recorded(workspace, 'recorded.json', ['The budget for the office move is $12,000.', 'Noted: $12,000.', 'Thanks!', 'You are welcome.']);
    const quiet = await workspace.run(['chat', '--replay', file], { env: {} });
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
    const verbose = await workspace.run(['chat', '--replay', file], { env: { STRATA_LOG_LEVEL: 'debug' } });
    expect(verbose.code).toBe(0);
    const records = verbose.stderr
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { name: string; msg: string; turn?: number; status?: string });
    const written = records.filter((record) => record.msg === 'turn memory written');
    expect(written.map((record) => [record.name, record.turn, record.status])).toEqual([
      ['strata', 1, 'summarised'],
      ['strata', 2, 'summarised'],
    ]);
  });

  it('rejects a replay file that is not a conversation, with exit code 2 and no session created', async () => {
    const file = workspace.write('bad.json', '{"messages": [{"role": "user"}]}');
    const result = await workspace.run(['chat', '--replay', file], { env: {} });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('bad.json');
    expect(JSON.parse((await workspace.run(['sessions', '--json'])).stdout)).toEqual([]);
  });

  it('checks every message of a replay file before recording any, so an oversized one stores nothing', async () => {
    const file = recorded(workspace, 'oversized.json', ['The venue for the offsite is Porto.', 'Noted: Porto.', 'x'.repeat(2_000)]);
    const result = await workspace.run(['chat', '--replay', file], { env: { STRATA_MAX_MESSAGE_BYTES: '1000' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/oversized\.json messages\[2\].*1,?000/u);
    expect(JSON.parse((await workspace.run(['sessions', '--json'])).stdout)).toEqual([]);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemory } from '../../src/memory/create-memory.js';
import { createWorkspace, plainConversation, type Workspace } from './helpers.js';

let ws: Workspace;
beforeEach(() => {
  ws = createWorkspace();
});
afterEach(() => ws.cleanup());

describe('strata import', () => {
  it('imports a plain [{role, content}] file and prints exactly {"sessionId","messages"} with --json', async () => {
    const file = ws.write('plain.json', JSON.stringify(plainConversation(3)));
    const result = await ws.run(['import', file, '--json']);
    expect(result.code).toBe(0);
    const output: unknown = JSON.parse(result.stdout);
    expect(Object.keys(output as object)).toEqual(['sessionId', 'messages']);
    expect(output).toEqual({ sessionId: expect.any(String), messages: 6 });
    expect(result.stdout.trim().split('\n')).toHaveLength(1);

    const memory = createMemory({ path: ws.db, env: {} });
    try {
      const session = await (await memory.sessions.open((output as { sessionId: string }).sessionId)).info();
      expect(session.messageCount).toBe(6);
      expect(session.turnCount).toBe(3);
      expect(session.title).toBe('Imported conversation');
    } finally {
      await memory.close();
    }
  });

  it('imports an OpenAI-style {"messages": [...]} file with a system message, with a title and a human summary', async () => {
    const file = ws.write(
      'openai.json',
      JSON.stringify({
        model: 'gpt-4o',
        messages: [
          { role: 'system', content: 'You are a helpful gardening assistant.' },
          ...plainConversation(2),
          { role: 'function', name: 'lookup', content: '{"ok":true}' },
        ],
      }),
    );
    const result = await ws.run(['import', file, '--title', 'Garden chat']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Imported 4 messages \(2 turns\) into session \S+ "Garden chat"; skipped 1 empty or legacy function message\n$/u);
    const id = /session (\S+) "/u.exec(result.stdout)?.[1] ?? '';

    const shown = await ws.run(['sessions', 'show', id, '--json']);
    expect(shown.code).toBe(0);
    const data = JSON.parse(shown.stdout) as { session: { instructions: string; messageCount: number; title: string } };
    expect(data.session.instructions).toBe('You are a helpful gardening assistant.');
    expect(data.session.messageCount).toBe(4);
    expect(data.session.title).toBe('Garden chat');
  });

  it('rejects a truncated JSON file with exit 2, says it is truncated and imports nothing', async () => {
    const full = JSON.stringify(plainConversation(3));
    const file = ws.write('truncated.json', full.slice(0, Math.floor(full.length / 2)));
    const result = await ws.run(['import', file, '--json']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect((JSON.parse(result.stderr) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'IMPORT_INVALID', message: expect.stringContaining('truncated') });
    expect(result.stderr.trim().split('\n')).toHaveLength(1);

    const list = await ws.run(['sessions', '--json']);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([]);
  });

  it('rejects a missing file with exit 2', async () => {
    const result = await ws.run(['import', 'does-not-exist.json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('strata: Cannot read does-not-exist.json: no such file.\n');
  });

  it('rejects a file that is not a conversation with exit 2', async () => {
    const file = ws.write('other.json', JSON.stringify({ hello: 'world' }));
    const result = await ws.run(['import', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^strata: .*not an importable conversation/u);
  });

  it('draws a progress bar on a terminal stderr for ≥ 50 turns, and never with --json', async () => {
    const file = ws.write('long.json', JSON.stringify(plainConversation(60)));
    const tty = await ws.run(['import', file], { stderrIsTty: true });
    expect(tty.code).toBe(0);
    expect(tty.stderr).toContain('Importing');
    expect(tty.stdout).toMatch(/^Imported 120 messages \(60 turns\)/u);

    const json = await ws.run(['import', file, '--json'], { stderrIsTty: true });
    expect(json.code).toBe(0);
    expect(json.stderr).toBe('');

    const small = await ws.run(['import', ws.write('small.json', JSON.stringify(plainConversation(3)))], { stderrIsTty: true });
    expect(small.stderr).toBe('');
  });
});

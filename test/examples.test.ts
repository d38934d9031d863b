import { afterEach, describe, expect, it, vi } from 'vitest';
import { startScriptedServer } from './support/scripted-openai-server.js';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** What an example prints when it runs. */
async function printed(load: () => Promise<unknown>): Promise<string> {
  const lines: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => void lines.push(parts.map(String).join(' ')));
  await load();
  return lines.join('\n');
}

describe('the examples run as the README shows them', () => {
  it('quick-start records turns and prints a package within its budget, with the facts and their sources', async () => {
    const output = await printed(() => import('../examples/quick-start.js'));
    expect(output).toMatch(/^\d+ of 300 tokens/mu);
    expect(output).toContain('€20,000');
    expect(output).toMatch(/\(from [\w-]+/u);
  });

  it('server keys a tenant, records a turn over REST and prints its package', async () => {
    const output = await printed(() => import('../examples/server.js'));
    expect(output).toMatch(/^\d+ tokens$/mu);
    expect(output).toContain('2 April');
  });

  it('chat streams two turns from the configured chat model and prints the facts', async () => {
    const server = await startScriptedServer({ script: [{ reply: 'Noted: Lisbon on June 3, no red-eyes.' }, { reply: 'Look at the 9:40 and the 13:15 TAP flights.' }] });
    try {
      vi.stubEnv('STRATA_CHAT_MODEL', 'scripted-chat');
      vi.stubEnv('STRATA_CHAT_BASE_URL', server.baseUrl);
      vi.stubEnv('STRATA_CHAT_API_KEY', 'test');
      const written: string[] = [];
      vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => written.push(String(chunk)) > 0);
      const output = await printed(() => import('../examples/chat.js'));
      expect(written.join('')).toContain('assistant> Look at the 9:40 and the 13:15 TAP flights.');
      expect(written.join('')).toMatch(/\[turn 2: \d+ context tokens\]/u);
      expect(output).toContain('Lisbon');
    } finally {
      await server.close();
    }
  });
});

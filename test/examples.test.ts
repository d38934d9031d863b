import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.restoreAllMocks();
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
});

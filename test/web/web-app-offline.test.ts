/**
 * The web app on a server that wants API keys and has no chat model: the key is asked for once, the
 * composer says what to set and records turns by hand, a file dropped on the window is imported, and a
 * key-fact conversation uploaded in the eval view is scored.
 */
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemory } from '../../src/memory/create-memory.js';
import type { Memory } from '../../src/memory/memory-api.js';
import { startServer, type RunningServer } from '../../src/server/start-server.js';
import { VAN_HIRE } from '../support/key-fact-fixtures.js';
import { temporaryFolder } from '../support/memory-fixtures.js';
import { launchBrowser, watchedPage, type Problems } from './browser.js';
import { buildWebApp } from './web-build.js';

const CONVERSATION = [
  { role: 'user', content: 'Please plan the garden shed: the base must be 3 by 4 metres and the budget is £1,200.' },
  { role: 'assistant', content: 'A 3 by 4 metre base within £1,200: I will price the timber and the slab.' },
];


describe('the web app with API keys and no chat model', () => {
  const folder = temporaryFolder();
  const webRoot = join(folder.path, 'web');
  const problems: Problems = { consoleErrors: [], failedRequests: [] };
  let memory: Memory;
  let server: RunningServer;
  let browser: Browser;
  let key: string;

  beforeAll(async () => {
    await buildWebApp(webRoot);
    memory = createMemory({ path: join(folder.path, 'strata.db'), env: {} });
    key = (await memory.keys.create({ tenant: 'acme', name: 'browser test' })).key;
    // Another tenant's session, which the key must not show.
    await memory.tenant('globex').sessions.create({ title: 'Globex secrets' });
    server = await startServer({ memory, port: 0, auth: 'keys', webRoot });
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    folder.cleanup();
  });

  it('asks for the key once, then records, imports and evaluates without a chat model', async () => {
    const page = await watchedPage(browser, 1280, 860, problems);
    await page.goto(server.url);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Open' }).click();
    await page.getByRole('button', { name: 'New session' }).waitFor();
    expect(await page.getByText('Globex secrets').count()).toBe(0);

    // A reload keeps the key for the tab: no second prompt.
    await page.reload();
    await page.getByRole('button', { name: 'New session' }).waitFor();
    expect(await page.getByLabel('API key').count()).toBe(0);

    // A conversation file dropped on the window becomes a session and opens.
    // (Run in the page, where the DOM's types live; the test's own program has Node's only.)
    await page.evaluate(`(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([${JSON.stringify(JSON.stringify(CONVERSATION))}], 'garden-shed.json', { type: 'application/json' }));
      for (const type of ['dragenter', 'dragover', 'drop']) window.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
    })()`);
    await page.locator('.message.user .content').filter({ hasText: 'garden shed' }).waitFor();
    expect(await page.locator('.session-list li').count()).toBe(1);

    // No chat model: the composer names what to set, and a turn can be recorded by hand.
    expect(await page.getByRole('note').textContent()).toContain('STRATA_CHAT_MODEL');
    await page.getByLabel('User says').fill('Actually make the budget £1,500; the slab costs more.');
    await page.getByLabel('Assistant answers').fill('Understood: £1,500 for the shed.');
    await page.getByRole('button', { name: 'Record turn' }).click();
    await page.locator('.message.assistant .content').filter({ hasText: '£1,500 for the shed' }).waitFor();
    await page.getByRole('tab', { name: 'Facts' }).click();
    await expect.poll(() => page.locator('.fact .fact-text').allTextContents()).toContainEqual(expect.stringContaining('£1,500'));

    // Tiers of a message, on request.
    await page.locator('.message.user').first().getByRole('button', { name: 'Tiers' }).click();
    expect(await page.locator('.tiers dt').allTextContents()).toEqual([expect.stringMatching(/^Tier 1 · \d+ tokens/), expect.stringMatching(/^Tier 2 · \d+ tokens/), expect.stringMatching(/^Tier 3 · \d+ tokens/)]);
    expect(await page.locator('.tiers .required dt').textContent()).toContain('required');

    // An uploaded key-fact conversation is replayed and scored.
    await page.getByRole('tab', { name: 'Eval' }).click();
    await page.locator('.eval-controls input[type="file"]').setInputFiles({ name: 'van-hire.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(VAN_HIRE)) });
    await page.locator('[data-figure="retention"]').waitFor({ timeout: 30_000 });
    expect(await page.locator('.fact-table tbody tr').count()).toBe(2);
    expect(await page.locator('[data-figure="stale"]').textContent()).toMatch(/^\d of 1$/);

    // Several files dropped at once are imported one after another; the last one opens.
    const second = [{ role: 'user', content: 'The van is booked for Saturday at nine.' }, { role: 'assistant', content: 'Saturday at nine it is.' }];
    const third = [{ role: 'user', content: 'Pack the kitchen last.' }, { role: 'assistant', content: 'Kitchen last.' }];
    await page.evaluate(`(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([${JSON.stringify(JSON.stringify(second))}], 'van.json', { type: 'application/json' }));
      transfer.items.add(new File([${JSON.stringify(JSON.stringify(third))}], 'packing.json', { type: 'application/json' }));
      for (const type of ['dragenter', 'dragover', 'drop']) window.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
    })()`);
    await page.locator('.message.user .content').filter({ hasText: 'Pack the kitchen last.' }).waitFor();
    await expect.poll(() => page.locator('.session-list li').count()).toBe(3);
    await page.context().close();
  }, 60_000);

  it('asks again, saying so, when the server refuses the key', async () => {
    const refused: Problems = { consoleErrors: [], failedRequests: [] };
    const page = await watchedPage(browser, 1280, 860, refused);
    await page.goto(server.url);
    await page.getByLabel('API key').fill('sk-strata-not-a-key');
    await page.getByRole('button', { name: 'Open' }).click();
    await page.getByRole('alert').filter({ hasText: 'refused the key' }).waitFor();
    expect(refused.failedRequests.length).toBeGreaterThan(0);
    expect(refused.failedRequests.every((line) => line.endsWith(': 401'))).toBe(true);
    // The right key then opens the app with no stale complaint about the wrong one.
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Open' }).click();
    await page.getByRole('button', { name: 'New session' }).waitFor();
    expect(await page.locator('.notice').count()).toBe(0);
    await page.context().close();
  });

  it('logged no console error and no failed request with a good key', () => {
    expect(problems.consoleErrors).toEqual([]);
    expect(problems.failedRequests).toEqual([]);
  });
});

/**
 * The web app in a real browser (Debian's Chromium, headless) against a real server with a scripted chat
 * upstream: the whole path a user takes, then a session of ten thousand messages, then a phone's width.
 * The run must log no console error and no failed request.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalMemoryManager } from '../../src/managers/local/local-memory-manager.js';
import type { MemoryManager } from '../../src/managers/memory-manager.js';
import { createMemory } from '../../src/memory/create-memory.js';
import type { Memory } from '../../src/memory/memory-api.js';
import { startServer, type RunningServer } from '../../src/server/start-server.js';
import { temporaryFolder } from '../support/memory-fixtures.js';
import { startScriptedServer, type ScriptedServer } from '../support/scripted-openai-server.js';
import { launchBrowser, watchedPage, type Problems } from './browser.js';
import { buildWebApp, shippedGzipBytes } from './web-build.js';

const TURNS = [
  { user: 'We are planning a trip to Lisbon in March. Our budget is $4,000 for the whole trip.', reply: ['Lisbon in March ', 'sounds lovely. ', "I'll keep the $4,000 budget ", 'in mind.'] },
  { user: 'We fly out on 12 March, and we are both vegetarian.', reply: ['Noted: ', 'flying out on 12 March, ', 'vegetarian meals only.'] },
  { user: 'Actually the budget changed to $5,000.', reply: ['Got it, ', 'the budget is now ', '$5,000.'] },
];

/** The local manager, made to take a moment over each turn (once `pace.delayMs` is set), so the page's "memory updating" state can be seen. */
function unhurriedManager(pace: { delayMs: number }): MemoryManager {
  const local = createLocalMemoryManager();
  return {
    name: local.name,
    processTurn: async (options) => {
      if (pace.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, pace.delayMs));
      return local.processTurn(options);
    },
    ...(local.consolidate === undefined ? {} : { consolidate: (options) => local.consolidate!(options) }),
  };
}

/** A long conversation of ten thousand messages, imported before the browser opens it. */
function longConversation(turns: number): Array<{ role: 'user' | 'assistant'; content: string }> {
  const topics = ['the garden shed', 'our Lisbon trip', 'the quarterly report', 'the espresso machine', "Maya's recital", 'the kitchen tiles', 'the database migration', 'the dentist'];
  return Array.from({ length: turns }, (_, index) => {
    const topic = topics[index % topics.length] ?? 'it';
    const cost = ((index * 37) % 900) + 100;
    return [
      { role: 'user' as const, content: `Can we talk about ${topic} again? I think it costs about $${cost} and should be done by day ${(index % 28) + 1}.` },
      { role: 'assistant' as const, content: `Sure. For ${topic}, about $${cost} sounds right; I will plan for day ${(index % 28) + 1} and remind you the week before.` },
    ];
  }).flat();
}

describe('the web app in Chromium', () => {
  const folder = temporaryFolder();
  const webRoot = join(folder.path, 'web');
  const problems: Problems = { consoleErrors: [], failedRequests: [] };
  let upstream: ScriptedServer;
  let memory: Memory;
  let server: RunningServer;
  let browser: Browser;
  let longSessionId: string;
  const pace = { delayMs: 0 };

  beforeAll(async () => {
    await buildWebApp(webRoot);
    upstream = await startScriptedServer();
    for (const turn of TURNS) upstream.push({ slowStream: { chunks: turn.reply, intervalMs: 120 } });
    memory = createMemory({ path: join(folder.path, 'strata.db'), env: { STRATA_CHAT_MODEL: 'scripted-model', STRATA_CHAT_BASE_URL: upstream.baseUrl }, manager: unhurriedManager(pace) });
    longSessionId = (await memory.sessions.import({ data: longConversation(5000), title: 'Ten thousand messages' })).sessionId;
    pace.delayMs = 700;
    server = await startServer({ memory, port: 0, auth: 'none', webRoot });
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await upstream?.close();
    folder.cleanup();
  });

  it('ships at most 150 KB of JavaScript and CSS, gzipped', () => {
    const bytes = shippedGzipBytes(webRoot);
    process.stdout.write(`web app: ${bytes} bytes of JavaScript and CSS, gzipped\n`);
    expect(bytes).toBeLessThanOrEqual(150 * 1024);
    expect(readFileSync(join(webRoot, 'index.html'), 'utf8')).not.toMatch(/(?:src|href)="https?:/);
  });

  it('chats, shows memory with its provenance, corrects it, travels back, sizes a package, exports and deletes', async () => {
    const page = await watchedPage(browser, 1280, 860, problems);
    const transcriptReads: string[] = [];
    page.on('request', (request) => {
      if (/\/messages(?:\?|$)/u.test(request.url())) transcriptReads.push(new URL(request.url()).search);
    });
    await page.goto(server.url);
    await page.getByRole('button', { name: 'New session' }).click();
    await expect.poll(() => page.getByRole('textbox', { name: 'Message scripted-model' }).isVisible()).toBe(true);

    for (const [index, turn] of TURNS.entries()) await chatTurn(page, index + 1, turn.user, turn.reply.join(''));
    // Once a turn is held, only the newest turn on is read again, never the whole transcript.
    const firstPaged = transcriptReads.findIndex((search) => search !== '');
    expect(firstPaged).toBeGreaterThan(0);
    expect(transcriptReads.slice(firstPaged), transcriptReads.join(' ')).toEqual(transcriptReads.slice(firstPaged).filter((search) => /^\?offset=[1-9]\d*$/u.test(search)));
    await expect.poll(() => transcriptReads).toContain('?offset=4');
    // Titled from what the person said first.
    await expect.poll(() => page.locator('.session-heading').textContent()).toMatch(/Lisbon/);
    expect(await page.locator('.session-list li.current .session-title').textContent()).toMatch(/Lisbon/);

    // The budget fact, with the turn it was last established in and the message it came from.
    await page.getByRole('tab', { name: 'Facts' }).click();
    const budget = page.locator('.fact[data-fact-key="budget"]');
    await expect.poll(() => budget.locator('.fact-text').textContent()).toBe('budget: $5,000');
    expect(await budget.textContent()).toContain('turn 3');
    await screenshot(page, 'chat-and-facts');
    await budget.getByRole('button', { name: 'turn 3 user' }).click();
    const highlighted = page.locator('.message.highlighted');
    await expect.poll(() => highlighted.locator('.content').textContent()).toBe(TURNS[2]!.user);

    // Corrected by hand, with a reason; the timeline says who and why.
    await page.getByRole('button', { name: 'Edit budget' }).click();
    const editor = page.getByRole('form', { name: 'Edit budget' });
    await editor.getByLabel('Text').fill('budget: $5,500 including trains');
    await editor.getByLabel('Reason').fill('Agreed on the phone');
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => budget.locator('.fact-text').textContent()).toBe('budget: $5,500 including trains');
    await page.getByRole('tab', { name: 'Timeline' }).click();
    const latest = page.locator('.event').first();
    expect(await latest.locator('.reason').textContent()).toBe('Agreed on the phone');
    expect(await latest.locator('.event-head .muted').textContent()).toMatch(/^turn 3 · user · /);
    await screenshot(page, 'timeline');

    // The document as it stood after turn 1.
    await page.getByRole('tab', { name: 'Facts' }).click();
    await page.locator('#fact-turn').fill('1');
    await expect.poll(() => budget.locator('.fact-text').textContent()).toBe('budget: $4,000 for the whole trip');
    expect(await page.locator('label[for="fact-turn"]').textContent()).toContain('after turn 1');
    await page.locator('#fact-turn').fill('3');

    // The package for two budgets: the bar is redrawn and never exceeds the budget.
    await page.getByRole('tab', { name: 'Context' }).click();
    const spinbutton = page.getByRole('spinbutton', { name: 'Budget (tokens)' });
    await spinbutton.fill('120');
    await expect.poll(() => page.locator('.context-total').textContent()).toMatch(/ of 120 tokens/);
    const small = await packageTokens(page);
    expect(small).toBeLessThanOrEqual(120);
    await spinbutton.fill('2000');
    await expect.poll(() => page.locator('.context-total').textContent()).toMatch(/ of 2,000 tokens/);
    expect(await packageTokens(page)).toBeGreaterThan(small);
    expect(await page.locator('.bar-part[data-part="facts"]').count()).toBe(1);
    expect(await page.locator('.package-section').first().textContent()).toMatch(/tokens/);
    await screenshot(page, 'context');

    // The retention eval of a shipped example.
    await page.getByRole('tab', { name: 'Eval' }).click();
    await page.getByLabel('Example conversation').selectOption('kitchen-renovation');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const retention = page.locator('[data-figure="retention"]');
    await retention.waitFor({ timeout: 30_000 });
    const score = Number(await retention.textContent());
    expect(score).toBeGreaterThan(0);
    expect(score).toBeLessThanOrEqual(1);
    expect(await page.locator('.fact-table tbody tr').count()).toBeGreaterThan(5);
    await screenshot(page, 'eval');

    // Markdown export: the transcript and the corrected fact.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export Markdown' }).click()]);
    const markdown = readFileSync((await download.path())!, 'utf8');
    expect(markdown).toContain(TURNS[0]!.user);
    expect(markdown).toContain('budget: $5,500 including trains');

    // Deleted after asking; gone from the list and from the server.
    const title = (await page.locator('.session-heading').textContent())!;
    await page.getByRole('button', { name: `Delete ${title}` }).click();
    await page.getByRole('group', { name: 'Confirm deletion' }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByRole('button', { name: `Delete ${title}` }).count()).toBe(0);
    expect((await memory.sessions.list()).map((session) => session.title)).not.toContain(title);
    await page.context().close();
  }, 60_000);

  it('keeps a turn to its session when another is opened mid-reply, gives back a message that failed, and retitles on rename', async () => {
    const alpha = await memory.sessions.create({ title: 'Alpha plans' });
    const beta = await memory.sessions.create({ title: 'Beta plans' });
    await beta.record({ user: 'Beta starts here.', assistant: 'Noted for beta.' });
    upstream.push({ slowStream: { chunks: ['one ', 'two ', 'three ', 'four ', 'five.'], intervalMs: 400 } }, { status: 400, body: { error: { message: 'bad request' } } });
    // (This page's one failure is the model's refusal, made on purpose; it is checked at the end.)
    const own: Problems = { consoleErrors: [], failedRequests: [] };
    const page = await watchedPage(browser, 1280, 860, own);
    await page.goto(`${server.url}/#/s/${alpha.id}`);
    const box = page.getByRole('textbox', { name: 'Message scripted-model' });
    await box.fill('A message meant for Alpha');
    await page.keyboard.press('Enter');
    await page.locator('[data-message-id="pending-reply"] .content').filter({ hasText: 'one' }).waitFor();
    // Beta opened while Alpha's reply streams: Beta shows only its own turn, and can be written to at once.
    await page.locator('.session-list li').filter({ hasText: 'Beta plans' }).locator('.session-open').click();
    await expect.poll(() => page.locator('.session-heading').textContent()).toBe('Beta plans');
    expect(await page.locator('.transcript .message .content').allTextContents()).toEqual(['Beta starts here.', 'Noted for beta.']);
    expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
    await box.fill('Is the model there?');
    expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(false);
    // Leaving cancelled Alpha's turn: nothing of it was stored.
    await expect.poll(async () => (await alpha.messages()).length).toBe(0);

    // The model refuses the next message: the error shows and the message is back in the box.
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: /chat model/i }).waitFor();
    await expect.poll(() => box.inputValue()).toBe('Is the model there?');
    await page.getByRole('button', { name: 'Dismiss' }).click();

    // A rename shows in the heading at once.
    await page.getByRole('button', { name: 'Rename Beta plans' }).click();
    await page.getByLabel('New title').fill('Beta, renamed');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('.session-heading').textContent()).toBe('Beta, renamed');
    expect(own.failedRequests).toEqual([`POST ${server.url}/api/sessions/${beta.id}/chat: 502`]);
    expect(own.consoleErrors).toEqual([expect.stringContaining('502')]);
    await page.context().close();
  }, 60_000);

  it('opens a session of ten thousand messages at once and keeps few rows in the page while it scrolls', async () => {
    const page = await watchedPage(browser, 1280, 860, problems);
    await page.goto(`${server.url}/#/s/${longSessionId}`);
    await page.locator('.transcript [data-message-id]').first().waitFor();
    const firstPaint = await page.evaluate(() => performance.now());
    process.stdout.write(`ten thousand messages: first paint of the session ${Math.round(firstPaint)} ms after navigation\n`);
    await screenshot(page, 'long-session');
    const lastTurn = page.locator('.transcript .message').last();
    expect(await lastTurn.textContent()).toContain('turn 5000');
    for (const fraction of [0.5, 0.1, 0.9]) {
      await page.locator('.transcript').evaluate((element, at) => (element.scrollTop = element.scrollHeight * at), fraction);
      await page.waitForTimeout(50);
      const rows = await page.locator('.transcript [role="listitem"]').count();
      expect(rows).toBeGreaterThan(0);
      expect(rows).toBeLessThan(60);
    }
    await page.context().close();
  }, 60_000);

  it('works at a phone width: one panel at a time, nothing wider than the screen', async () => {
    const page = await watchedPage(browser, 390, 844, problems);
    await page.goto(`${server.url}/#/s/${longSessionId}`);
    await page.locator('.transcript [data-message-id]').first().waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.getByRole('button', { name: 'Memory' }).click();
    expect(await page.locator('.transcript').isVisible()).toBe(false);
    // Every tab is on screen, none cut off.
    expect(await page.locator('.tabs').evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await page.getByRole('tab', { name: 'Turn log' }).click();
    const firstTurn = page.locator('.turn-row button').first();
    await expect.poll(() => firstTurn.textContent()).toBe('5000');
    expect(await page.locator('.turn-row').count()).toBeLessThan(60);
    await screenshot(page, 'phone-turn-log');
    await page.getByRole('button', { name: 'Sessions' }).click();
    expect(await page.getByRole('button', { name: 'New session' }).isVisible()).toBe(true);
    await page.context().close();
  }, 60_000);

  it('logged no console error and no failed request', () => {
    expect(problems.consoleErrors).toEqual([]);
    expect(problems.failedRequests).toEqual([]);
  });
});

/** With STRATA_WEB_SCREENSHOTS set to a folder, the views are saved there as PNG (the README's come from here). */
async function screenshot(page: Page, name: string): Promise<void> {
  const folder = process.env.STRATA_WEB_SCREENSHOTS;
  if (folder === undefined || folder === '') return;
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: join(folder, `${name}.png`) });
}

/** Sends one message, checks the reply streams in, the turn's context figures and the memory state. */
async function chatTurn(page: Page, turn: number, message: string, reply: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message scripted-model' }).fill(message);
  await page.keyboard.press('Enter');
  const writing = page.locator('[data-message-id="pending-reply"] .content');
  // Part of the reply is on screen before all of it is: it streams.
  await expect.poll(async () => {
    const text = (await writing.textContent({ timeout: 2000 }).catch(() => null)) ?? '';
    return text.length > 1 && text !== reply && reply.startsWith(text);
  }).toBe(true);
  await page.getByRole('status').filter({ hasText: `Memory updating for turn ${turn}` }).waitFor();
  await page.getByRole('status').filter({ hasText: 'Memory updating' }).waitFor({ state: 'detached' });
  const answer = page.locator('.message.assistant').last();
  expect(await answer.locator('.content').textContent()).toBe(reply);
  // Told to screen readers once, whole.
  expect(await page.locator('[aria-live="polite"].visually-hidden').textContent()).toBe(`Reply: ${reply}`);
  expect(await answer.locator('.badge').textContent()).toMatch(/^context [\d,]+ \/ 30,000$/);
}

async function packageTokens(page: Page): Promise<number> {
  const text = (await page.locator('.context-total').textContent()) ?? '';
  return Number((/^([\d,]+) of/.exec(text)?.[1] ?? 'NaN').replace(/,/g, ''));
}

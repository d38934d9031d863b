/**
 * Debian's Chromium driven by playwright-core (never a browser download), headless, with everything that
 * would reach out to the network turned off. Every console error, uncaught page error, failed request and
 * answer of 400 or more is collected, so a test can say the run had none.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.STRATA_CHROMIUM ?? '/usr/bin/chromium';

const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

export interface Problems {
  consoleErrors: string[];
  failedRequests: string[];
}

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`No Chromium at ${CHROMIUM}: install Debian's package (apt-get install chromium), or set STRATA_CHROMIUM to a Chromium binary.`);
  }
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}

/** A page of its own context at the given width, watched for problems. */
export async function watchedPage(browser: Browser, width: number, height: number, problems: Problems): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height }, acceptDownloads: true });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => problems.consoleErrors.push(`uncaught: ${error.message}`));
  page.on('requestfailed', (request) => {
    // A stream the page itself cancels (leaving a view) is not a failure of the server.
    if (request.failure()?.errorText !== 'net::ERR_ABORTED') problems.failedRequests.push(`${request.method()} ${request.url()}: ${request.failure()?.errorText ?? 'failed'}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.failedRequests.push(`${response.request().method()} ${response.url()}: ${response.status()}`);
  });
  return page;
}

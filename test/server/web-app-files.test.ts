import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/create-app.js';
import { temporaryFolder, testMemory } from '../support/memory-fixtures.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function appServing(webRoot: string) {
  const { memory, cleanup } = testMemory();
  cleanups.push(cleanup);
  return createApp({ memory, auth: 'keys', webRoot });
}

/** A built app in `site/` of a folder of its own, beside a file that must never be served. */
function builtApp(): string {
  const folder = temporaryFolder();
  cleanups.push(folder.cleanup);
  const root = join(folder.path, 'site');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Strata</title><script type="module" src="/assets/app-1a2b.js"></script>');
  writeFileSync(join(root, 'assets', 'app-1a2b.js'), 'console.log("strata");');
  writeFileSync(join(folder.path, 'secret.txt'), 'not for the web');
  return root;
}

describe('the web app files', () => {
  it('serves the page at / without a key, uncached and same-origin only', async () => {
    const app = appServing(builtApp());
    const page = await app.request('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await page.text()).toContain('<title>Strata</title>');
    // The API behind it still wants a key.
    expect((await app.request('/api/sessions')).status).toBe(401);
  });

  it('serves the hashed assets for good, and a missing one as a JSON 404', async () => {
    const app = appServing(builtApp());
    const script = await app.request('/assets/app-1a2b.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const missing = await app.request('/assets/gone.js');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });

  it('never serves a file outside its folder', async () => {
    const app = appServing(builtApp());
    // (Sent as written: a URL parser would resolve the dots before the server saw them.)
    for (const path of ['/assets/%2e%2e/secret.txt', '/assets/..%2fsecret.txt', '/assets/..%5csecret.txt', '/assets/%2e%2e%2f%2e%2e%2fsecret.txt']) {
      const answer = await app.request(path);
      expect(answer.status, path).not.toBe(200);
      expect(await answer.text()).not.toContain('not for the web');
    }
  });

  it('says how to build the app when it is not built', async () => {
    const folder = temporaryFolder();
    cleanups.push(folder.cleanup);
    const answer = await appServing(folder.path).request('/');
    expect(answer.status).toBe(404);
    expect(((await answer.json()) as { error: { message: string } }).error.message).toContain('npm run build');
  });
});

import { request as httpRequest } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { captureIo, createWorkspace, type Workspace } from './helpers.js';

let workspace: Workspace;

beforeEach(() => {
  workspace = createWorkspace();
});

afterEach(() => {
  workspace.cleanup();
});

/** Start `strata serve` in-process; resolves once it prints its address. */
async function serve(args: string[]): Promise<{ url: string; stop: () => Promise<{ code: number; stderr: string }> }> {
  const controller = new AbortController();
  const io = { ...captureIo({ cwd: workspace.dir, env: { STRATA_LOG_LEVEL: 'silent' } }), stop: controller.signal };
  const running = main(['node', 'strata', 'serve', '--port', '0', '--db', workspace.db, ...args], io);
  for (let waited = 0; !io.out().includes('listening on'); waited += 10) {
    if (waited > 10_000) throw new Error(`serve did not start: ${io.err()}`);
    const early = await Promise.race([running, new Promise<null>((resolve) => setTimeout(() => resolve(null), 10))]);
    if (early !== null) throw new Error(`serve ended with ${early}: ${io.err()}`);
  }
  const url = /listening on (\S+)/u.exec(io.out())?.[1] ?? '';
  return {
    url,
    stop: async () => {
      controller.abort();
      return { code: await running, stderr: io.err() };
    },
  };
}

describe('strata serve', () => {
  it('prints the address it bound, serves keyed requests over HTTP, logs each as a JSON line and stops cleanly', async () => {
    const created = await workspace.run(['keys', 'create', '--tenant', 'acme', '--json']);
    const { key } = JSON.parse(created.stdout) as { key: string };
    const server = await serve([]);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/u);
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const session = (await (await fetch(`${server.url}/api/sessions`, { method: 'POST', headers, body: JSON.stringify({ title: 'Over HTTP' }) })).json()) as { id: string };
    const turn = await fetch(`${server.url}/api/sessions/${session.id}/turns`, { method: 'POST', headers, body: JSON.stringify({ user: 'The plumber comes on Thursday at 8.' }) });
    expect(turn.status).toBe(200);
    expect((await fetch(`${server.url}/api/sessions`)).status).toBe(401);
    const stopped = await server.stop();
    expect(stopped.code).toBe(0);
    const lines = stopped.stderr.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.filter((line) => line.msg === 'request').map((line) => [line.method, line.route, line.status])).toEqual([
      ['POST', '/api/sessions', 201],
      ['POST', '/api/sessions/:sessionId/turns', 200],
      ['GET', '/api/sessions', 401],
    ]);
    // The turn is in the database once the server is gone.
    const listed = await workspace.run(['sessions', 'show', session.id, '--tenant', 'acme']);
    expect(listed.stdout).toContain('Over HTTP');
  });

  it('serves the default tenant without keys on loopback with --no-auth, and refuses --no-auth on any other host', async () => {
    const server = await serve(['--no-auth']);
    const created = await fetch(`${server.url}/api/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Open' }) });
    expect(created.status).toBe(201);
    // A page elsewhere reaching it through a rebound DNS name is refused: its requests name that host.
    const rebound = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(`${server.url}/api/sessions`);
      const request = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, headers: { host: `attacker.example:${url.port}` } }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      request.on('error', reject);
      request.end();
    });
    expect(rebound.status).toBe(401);
    expect(rebound.body).toContain('attacker.example');
    expect((await server.stop()).code).toBe(0);
    const sessions = await workspace.run(['sessions', '--json']);
    expect((JSON.parse(sessions.stdout) as Array<{ title: string }>).map((session) => session.title)).toEqual(['Open']);

    const refused = await workspace.run(['serve', '--no-auth', '--host', '0.0.0.0', '--port', '0']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/loopback host only/u);
  });

  it('names the port when it cannot listen', async () => {
    const first = await serve([]);
    const port = new URL(first.url).port;
    const second = await workspace.run(['serve', '--port', port]);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(`Cannot listen on 127.0.0.1:${port}`);
    await first.stop();
  });
});

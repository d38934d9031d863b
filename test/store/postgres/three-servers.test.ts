/**
 * Three `strata serve` processes on one PostgreSQL database: clients spread over them record turns in
 * the same and in different sessions at once, and one server is killed with SIGKILL mid-turn. Afterwards
 * every acknowledged turn is there once and in its client's order, no turn's memory is left pending once
 * the survivors have served its session again, and each session's fact history replays to its document.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayFactEvents } from '../../../src/core/diff.js';
import type { Fact, FactEvent, Message, TurnSummary } from '../../../src/core/types.js';
import { bundledChild } from '../../support/bundle.js';
import { DATABASE_URL, POSTGRES_SKIP_REASON, dropSchemas, withParameter } from '../../support/postgres.js';

const SESSIONS = 3;
const CLIENTS_PER_SESSION = 3;
const TURNS_PER_CLIENT = 8;
const schema = `strata_e2e_${randomBytes(5).toString('hex')}`;
const url = withParameter(DATABASE_URL ?? '', `schema=${schema}`);

interface Server {
  child: ChildProcess;
  base: string;
  alive: boolean;
}

let child: Awaited<ReturnType<typeof bundledChild>> | undefined;
const servers: Server[] = [];

/** Start `strata serve` on a free port and wait for its "listening on" line. */
async function startServer(script: string): Promise<Server> {
  const process_ = spawn(process.execPath, [script, 'serve', '--port', '0', '--no-auth', '--db', url], {
    env: { ...process.env, STRATA_DB: '', STRATA_LOG_LEVEL: 'silent', STRATA_IMPORT_WORKER: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  process_.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // Its request log, read only when it fails to start.
  process_.stderr?.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4000)));
  for (let waited = 0; !output.includes('listening on'); waited += 25) {
    if (waited > 30_000 || process_.exitCode !== null) throw new Error(`strata serve did not start: ${output} ${errors}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { child: process_, base: /listening on (\S+)/u.exec(output)?.[1] ?? '', alive: true };
}

async function call<T>(server: Server, path: string, body?: unknown): Promise<T> {
  const answer = await fetch(`${server.base}${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!answer.ok) throw new Error(`${path}: ${String(answer.status)} ${await answer.text()}`);
  return (await answer.json()) as T;
}

/** The text a client says in its `index`th turn: names, an amount and a date, so the local manager keeps facts of it. */
function said(session: number, client: number, index: number): string {
  return `Client ${String(client)} of session ${String(session)}, turn ${String(index)}: the budget for item ${String(index)} is now $${String(1000 + index * 10)}, due on ${String(index + 1)} March.`;
}

describe.skipIf(POSTGRES_SKIP_REASON !== null)(`Three servers on one PostgreSQL database${POSTGRES_SKIP_REASON === null ? '' : ` (skipped: ${POSTGRES_SKIP_REASON})`}`, () => {
  beforeAll(async () => {
    child = await bundledChild('test/store/postgres/serve-child.ts');
    // Started together: the migrations run once, under their lock.
    servers.push(...(await Promise.all([0, 1, 2].map(() => startServer(child?.path ?? '')))));
  }, 90_000);

  afterAll(async () => {
    for (const server of servers) if (server.alive) server.child.kill('SIGTERM');
    await Promise.all(servers.map((server) => new Promise((resolve) => (server.child.exitCode === null && server.child.signalCode === null ? server.child.on('exit', resolve) : resolve(null)))));
    child?.remove();
    await dropSchemas(schema);
  }, 60_000);

  it('keeps every acknowledged turn once and in order, and the survivors finish the memory work, when one server is killed mid-turn', async () => {
    const [first, , victim] = servers as [Server, Server, Server];
    const sessions = await Promise.all(Array.from({ length: SESSIONS }, (_, index) => call<{ id: string }>(first, '/api/sessions', { title: `Shared ${String(index)}` })));
    const acknowledged = new Map<string, string[]>(sessions.map((session) => [session.id, []]));
    let killed = false;
    const client = async (session: number, client: number): Promise<void> => {
      const sessionId = sessions[session]?.id ?? '';
      for (let index = 1; index <= TURNS_PER_CLIENT; index += 1) {
        const text = said(session, client, index);
        // Each turn goes to the next server in turn, skipping one known to be dead.
        const live = servers.filter((server) => server.alive);
        const server = live[(client + index) % live.length] ?? first;
        try {
          await call(server, `/api/sessions/${sessionId}/turns`, { user: text, assistant: `Noted: item ${String(index)} at $${String(1000 + index * 10)}.` });
          acknowledged.get(sessionId)?.push(text);
        } catch {
          // Not acknowledged (the server died with the request): the client does not count it.
        }
        if (!killed && client === 1 && index === 3) {
          killed = true;
          victim.alive = false;
          victim.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: SESSIONS * CLIENTS_PER_SESSION }, (_, index) => client(index % SESSIONS, index)));
    const survivor = servers.find((server) => server.alive) ?? first;
    for (const { id } of sessions) {
      // A read through a survivor derives what the dead server left pending.
      await call(survivor, `/api/sessions/${id}/context?budget=2000`);
      const { messages } = await call<{ messages: Message[] }>(survivor, `/api/sessions/${id}/messages`);
      const userTexts = messages.filter((message) => message.role === 'user').map((message) => message.content);
      for (const text of acknowledged.get(id) ?? []) expect(userTexts.filter((stored) => stored === text)).toHaveLength(1);
      // Each client's turns are stored in the order it made them.
      for (let clientIndex = 0; clientIndex < SESSIONS * CLIENTS_PER_SESSION; clientIndex += 1) {
        const mine = userTexts.filter((text) => text.startsWith(`Client ${String(clientIndex)} `));
        expect(mine).toEqual([...mine].sort((a, b) => Number(/turn (\d+)/u.exec(a)?.[1]) - Number(/turn (\d+)/u.exec(b)?.[1])));
      }
      const { turns } = await call<{ turns: TurnSummary[] }>(survivor, `/api/sessions/${id}/turns`);
      expect(turns.map((turn) => turn.turn)).toEqual(Array.from({ length: turns.length }, (_, index) => index + 1));
      expect(turns.filter((turn) => turn.status === 'pending-retry')).toEqual([]);
      const { events } = await call<{ events: FactEvent[] }>(survivor, `/api/sessions/${id}/facts/events`);
      const { facts } = await call<{ facts: Fact[] }>(survivor, `/api/sessions/${id}/facts`);
      expect(events.map((event) => event.sequence)).toEqual(Array.from({ length: events.length }, (_, index) => index + 1));
      expect(replayFactEvents(events).map((fact) => fact.text).sort()).toEqual(facts.map((fact) => fact.text).sort());
    }
    expect(killed).toBe(true);
    expect([...acknowledged.values()].flat().length).toBeGreaterThan(SESSIONS * CLIENTS_PER_SESSION * TURNS_PER_CLIENT * 0.6);
  }, 240_000);
});

/**
 * Strata behind HTTP in your own process: a key for a tenant, the server on a free port, a few REST calls,
 * then a clean stop. Run it after `npm run build` with: node dist/examples/server.js (or read it as documentation).
 */
import { createMemory } from '../src/index.js';
import { startServer } from '../src/server/index.js';

const memory = createMemory({ path: ':memory:' });
const { key } = await memory.keys.create({ tenant: 'acme', name: 'example' });
const server = await startServer({ memory, port: 0 });
try {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const created = (await (await fetch(`${server.url}/api/sessions`, { method: 'POST', headers, body: JSON.stringify({ title: 'Garden' }) })).json()) as { id: string };
  await fetch(`${server.url}/api/sessions/${created.id}/turns`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ user: 'The raised beds are 1.2 m wide and the soil arrives on 2 April.', assistant: 'Noted.' }),
  });
  const pkg = (await (await fetch(`${server.url}/api/sessions/${created.id}/context?budget=400&query=soil`, { headers })).json()) as { tokens: number; messages: Array<{ role: string; content: string }> };
  console.log(`${pkg.tokens} tokens`);
  for (const message of pkg.messages) console.log(`--- ${message.role}\n${message.content}`);
} finally {
  // Waits for requests in flight and closes the memory too.
  await server.close();
}

// Reads a database it may not write, then tries a write; bundled and run as another user by read-only-database.test.ts.
import { createMemory } from '../../src/memory/create-memory.js';

const memory = createMemory({ path: process.argv[2] ?? '', env: { STRATA_LOG_LEVEL: 'silent' } });
const listed = await memory.sessions.list();
const session = await memory.sessions.open(listed[0]?.id ?? '');
const facts = (await session.facts()).map((fact) => fact.text);
const exported = JSON.parse(await session.export({ format: 'json' })) as { messages: unknown[] };
let write: unknown = 'stored';
try {
  await session.record({ user: 'One more thing.', assistant: 'Noted.' });
} catch (error) {
  write = { code: (error as { code?: string }).code, message: (error as Error).message };
}
await memory.close();
process.stdout.write(`${JSON.stringify({ titles: listed.map((item) => item.title), facts, messages: exported.messages.length, write })}\n`);

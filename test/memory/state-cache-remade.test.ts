import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemory, type Memory } from '../../src/memory/create-memory.js';

const folders: string[] = [];
const memories: Memory[] = [];

afterEach(async () => {
  await Promise.all(memories.splice(0).map((memory) => memory.close()));
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function open(path: string): Memory {
  const memory = createMemory({ path, env: { STRATA_LOG_LEVEL: 'silent' } });
  memories.push(memory);
  return memory;
}

describe('a session deleted and made again under its id by another process', () => {
  it('is written and read afresh, even when its fact events reach the same number as before', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'strata-remade-'));
    folders.push(folder);
    const path = join(folder, 'memory.db');
    const first = open(path);
    const before = await first.sessions.create({ id: 'shared', title: 'Before' });
    await before.record({ user: 'Our budget for the party is £900.', assistant: 'Noted.' });
    expect((await before.facts()).map((fact) => fact.text).join(' ')).toContain('£900');
    const events = (await before.factEvents()).length;
    await before.context({ budget: 500 });

    // Another process deletes it and makes a new one with the same id, with as many fact events.
    const second = open(path);
    await (await second.sessions.open('shared')).delete();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const remade = await second.sessions.create({ id: 'shared', title: 'After' });
    for (let index = 0; index < events; index += 1) await remade.facts.add({ text: `venue ${index}: Leeds Town Hall, room ${index + 1}`, reason: 'booked' });
    expect((await remade.factEvents()).length).toBe(events);

    // The first memory's next turn builds on the new session's facts, and its package shows them.
    const again = await first.sessions.open('shared');
    const turn = await again.record({ user: 'Actually the budget for the party is now £950.', assistant: 'Noted: £950.' });
    // Built on the old session's facts, this would be an update of its £900 line.
    expect(turn.factEvents.map((event) => event.oldText ?? '').join(' ')).not.toContain('£900');
    const texts = (await again.facts()).map((fact) => fact.text).join(' | ');
    expect(texts).toContain('Leeds Town Hall');
    expect(texts).not.toContain('£900');
    const pkg = JSON.stringify((await again.context({ budget: 800 })).render());
    expect(pkg).toContain('Leeds Town Hall');
    expect(pkg).not.toContain('£900');
  });
});

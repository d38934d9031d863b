import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { StrataError } from '../../src/core/errors.js';
import { createMemory, type Memory } from '../../src/memory/create-memory.js';

describe('memory.tenant(id): one memory, many tenants', () => {
  let memory: Memory;
  beforeEach(() => {
    memory = createMemory({ path: ':memory:', env: {} });
  });
  afterEach(async () => {
    await memory.close();
  });

  it('the default tenant is what createMemory() gives, and tenant(id) returns the same object for the same id', () => {
    expect(memory.tenantId).toBe('default');
    expect(memory.tenant('default').sessions).toBe(memory.sessions);
    expect(memory.tenant('acme')).toBe(memory.tenant('acme'));
    expect(memory.tenant('acme').tenantId).toBe('acme');
  });

  it('a tenant sees only its own sessions; another tenant\'s session id answers SESSION_NOT_FOUND like an unknown one', async () => {
    const acme = memory.tenant('acme');
    const globex = memory.tenant('globex');
    const session = await acme.sessions.create({ title: 'Acme support' });
    await session.record({ user: 'Our budget is $40,000 for the launch.', assistant: 'Noted: $40,000.' });

    expect((await acme.sessions.list()).map((listed) => listed.title)).toEqual(['Acme support']);
    expect(await globex.sessions.list()).toEqual([]);
    expect(await memory.sessions.list()).toEqual([]);

    const unknown = await globex.sessions.open('no-such-session').catch((error: unknown) => error);
    const foreign = await globex.sessions.open(session.id).catch((error: unknown) => error);
    expect(foreign).toBeInstanceOf(StrataError);
    expect((foreign as StrataError).code).toBe((unknown as StrataError).code);
    expect((foreign as StrataError).code).toBe('SESSION_NOT_FOUND');
    expect((foreign as StrataError).message).toContain('tenant "globex"');
  });

  it('facts, context and counters stay with their tenant', async () => {
    const acme = await memory.tenant('acme').sessions.create();
    const home = await memory.sessions.create();
    await acme.record({ user: 'The deadline is March 3 for the beta.' });
    await home.record({ user: 'Hi there.' });

    expect((await acme.facts()).map((fact) => fact.text).join('\n')).toContain('March 3');
    expect(JSON.stringify((await acme.context({ budget: 500 })).render())).toContain('March 3');
    expect(JSON.stringify((await home.context({ budget: 500 })).render())).not.toContain('March 3');
    expect((await memory.tenant('acme').stats()).turns).toBe(1);
    expect((await memory.stats()).turns).toBe(1);
    await expect(memory.stats({ sessionId: acme.id })).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
  });

  it('refuses a tenant id that is empty, not a string, too long, padded with spaces or holds control characters, naming the rule', () => {
    for (const bad of ['', '   ', ' acme', 'acme ', '\tacme', 'a'.repeat(201), 'bad\nid', 42, null]) {
      expect(() => memory.tenant(bad as string)).toThrowError(/a tenant id is 1 to 200 characters, without control characters or spaces at either end/u);
    }
  });

  it('the same session id may exist in two tenants; deleting one leaves the other', async () => {
    const exported = await (async () => {
      const session = await memory.tenant('acme').sessions.create({ title: 'Shared id' });
      await session.record({ user: 'We pay suppliers by bank transfer only.' });
      return { id: session.id, json: await session.export({ format: 'json' }) };
    })();
    const copy = await memory.tenant('globex').sessions.import({ data: exported.json });
    expect(copy.sessionId).toBe(exported.id);
    await (await memory.tenant('acme').sessions.open(exported.id)).delete();
    const kept = await memory.tenant('globex').sessions.open(exported.id);
    expect((await kept.messages()).map((message) => message.content)).toEqual(['We pay suppliers by bank transfer only.']);
  });
});

describe('tenants on one database file', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'strata-tenants-'));
  });
  afterEach(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('a tenant reached through tenant(id) is the tenant another memory opens with { tenant }', async () => {
    const path = join(folder, 'strata.db');
    const first = createMemory({ path, env: {} });
    const session = await first.tenant('acme').sessions.create({ title: 'Persisted' });
    await session.record({ user: 'The venue is Hartwell Barn.' });
    await first.close();
    expect(() => first.tenant('acme')).toThrowError(/closed/u);

    const second = createMemory({ path, env: {}, tenant: 'acme' });
    try {
      expect(second.tenantId).toBe('acme');
      expect((await second.sessions.list()).map((listed) => listed.title)).toEqual(['Persisted']);
    } finally {
      await second.close();
    }
  });
});

describe('tenant ids in settings', () => {
  it('are exact: STRATA_TENANT=" acme" is refused, not read as "acme", and nothing is opened', () => {
    expect(() => createMemory({ path: ':memory:', env: { STRATA_TENANT: ' acme' } })).toThrowError(/a tenant id is 1 to 200 characters/u);
    expect(() => createMemory({ path: ':memory:', env: {}, tenant: 'acme\n' })).toThrowError(/a tenant id is 1 to 200 characters/u);
    const memory = createMemory({ path: ':memory:', env: { STRATA_TENANT: 'Acme Corp' } });
    expect(memory.tenantId).toBe('Acme Corp');
    return memory.close();
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemory } from '../../src/memory/create-memory.js';
import { createWorkspace, type Workspace } from './helpers.js';

let workspace: Workspace;

beforeEach(() => {
  workspace = createWorkspace();
});

afterEach(() => {
  workspace.cleanup();
});

describe('strata keys', () => {
  it('creates a key once (JSON gives key and tenant), lists it without the key, and revokes it', async () => {
    const created = await workspace.run(['keys', 'create', '--tenant', 'acme', '--name', 'web app', '--json']);
    expect(created.code).toBe(0);
    const { key, tenant, id } = JSON.parse(created.stdout) as { key: string; tenant: string; id: string };
    expect(tenant).toBe('acme');
    expect(key).toMatch(/^strata_[A-Za-z0-9_-]{43}$/u);

    const listed = await workspace.run(['keys', 'list', '--json']);
    const keys = JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
    expect(keys).toEqual([{ id, tenant: 'acme', name: 'web app', createdAt: expect.any(String), revokedAt: null }]);
    expect(listed.stdout).not.toContain(key);
    const table = await workspace.run(['keys']);
    expect(table.stdout).toContain('web app');

    const memory = createMemory({ path: workspace.db, env: { STRATA_LOG_LEVEL: 'silent' } });
    try {
      expect(await memory.keys.verify(key)).toBe('acme');
      const revoked = await workspace.run(['keys', 'revoke', id]);
      expect(revoked.code).toBe(0);
      expect(revoked.stdout).toContain(`Revoked key ${id}`);
      expect(await memory.keys.verify(key)).toBeNull();
    } finally {
      await memory.close();
    }
  });

  it('prints a plain key on stdout and the advice on stderr, so it can be piped', async () => {
    const created = await workspace.run(['keys', 'create', '--tenant', 'acme']);
    expect(created.stdout.trim()).toMatch(/^strata_\S+$/u);
    expect(created.stderr).toContain('cannot be shown again');
  });

  it('refuses a key without a tenant, for an invalid tenant id, and revoking an unknown id', async () => {
    const missing = await workspace.run(['keys', 'create']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--tenant');
    const invalid = await workspace.run(['keys', 'create', '--tenant', ' acme ']);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(/tenant id/iu);
    const unknown = await workspace.run(['keys', 'revoke', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No API key with id "nope"');
    expect(JSON.parse((await workspace.run(['keys', 'list', '--json'])).stdout)).toEqual([]);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testServer, type TestServer } from './server-fixtures.js';

let server: TestServer;
let key: string;

beforeEach(async () => {
  server = await testServer();
  key = await server.keyOf('acme');
});

afterEach(async () => {
  await server.cleanup();
});

describe('REST long-term memory', () => {
  it('adds, reads, changes, renames, deprecates and undoes a memory, every change a version with its reason', async () => {
    const added = await server.call('POST', '/api/memories', { key, body: { value: "Mom's birthday is May 4", name: 'mom-birthday', tags: ['Family / Birthdays'] } });
    expect(added.status).toBe(201);
    expect(added.json).toMatchObject({ key: 'M1', name: 'mom-birthday', version: 1 });
    const changed = await server.call('PATCH', '/api/memories/mom-birthday', { key, body: { value: "Mom's birthday is May 14", reason: 'she corrected me' } });
    expect(changed.json).toMatchObject({ value: "Mom's birthday is May 14", version: 2 });
    const renamed = await server.call('PATCH', '/api/memories/M1', { key, body: { name: 'mum-birthday' } });
    expect(renamed.json.name).toBe('mum-birthday');
    expect((await server.call('PATCH', '/api/memories/M1', { key, body: { deprecated: true, reason: 'kept elsewhere' } })).json.deprecated).toBe(true);
    const undone = await server.call('POST', '/api/memories/mum-birthday/undo', { key, body: {} });
    expect(undone.json).toMatchObject({ deprecated: false, version: 4 });
    const versions = await server.call('GET', '/api/memories/M1/versions', { key });
    expect(versions.json.versions.map((version: { reason: string; by: string }) => [version.by, version.reason])).toEqual([
      ['user', 'remembered'],
      ['user', 'she corrected me'],
      ['user', 'kept elsewhere'],
      ['user', 'undo of version 3'],
    ]);
    const read = await server.call('GET', '/api/memories/M1', { key });
    expect(read.json).toMatchObject({ memory: { key: 'M1', value: "Mom's birthday is May 14" }, tags: ['family/birthdays'], edges: [] });
    expect((await server.call('GET', '/api/memories?tag=family/birthdays', { key })).json.memories.map((memory: { key: string }) => memory.key)).toEqual(['M1']);
  });

  it('tags and links memories, lists tags, and recalls with reasons', async () => {
    await server.call('POST', '/api/memories', { key, body: { value: 'Never schedule anything on a Saturday' } });
    await server.call('POST', '/api/memories', { key, body: { value: 'Calls go by Lisbon time' } });
    expect((await server.call('POST', '/api/memories/M1/tags', { key, body: { tags: ['rules', 'work/scheduling'] } })).json.tags).toEqual(['rules', 'work/scheduling']);
    expect((await server.call('DELETE', '/api/memories/M1/tags', { key, body: { tags: ['rules'] } })).json.tags).toEqual(['work/scheduling']);
    const edge = await server.call('POST', '/api/memories/M2/edges', { key, body: { to: 'M1', type: 'relates-to', reason: 'both about meetings' } });
    expect(edge.json).toMatchObject({ type: 'relates-to', reason: 'both about meetings', by: 'user' });
    expect((await server.call('GET', '/api/memory-tags', { key })).json.tags).toEqual([{ tag: 'work/scheduling', memories: 1 }]);
    const recall = await server.call('POST', '/api/memory-recall', { key, body: { query: 'Can we meet on Saturday?' } });
    expect(recall.json.nothingRelevant).toBe(false);
    expect(recall.json.memories.map((entry: { memory: { key: string }; path: string; reason: string }) => [entry.memory.key, entry.path, entry.reason])).toEqual([
      ['M1', 'words', 'shares "saturday" with the query'],
      ['M2', 'link', 'linked: it relates-to M1'],
    ]);
    expect((await server.call('DELETE', '/api/memories/M2/edges', { key, body: { to: 'M1', type: 'relates-to' } })).json).toEqual({ removed: true });
    expect((await server.call('POST', '/api/memory-recall', { key, body: { query: 'the weather tomorrow' } })).json).toEqual({ memories: [], nothingRelevant: true });
  });

  it('runs the maintenance agents, lists and reads runs, and settles a proposal', async () => {
    await server.call('POST', '/api/memories', { key, body: { value: 'The staging server runs in eu-west with 4 cores.', tags: ['infra'] } });
    await server.call('POST', '/api/memories', { key, body: { value: 'The staging server runs in eu-west with 8 cores.', tags: ['infra'] } });
    const run = await server.call('POST', '/api/memory-runs', { key, body: { agents: ['linker'] } });
    expect(run.status).toBe(201);
    expect(run.json.actions.map((action: { kind: string; edgeType: string }) => [action.kind, action.edgeType])).toEqual([['link', 'contradicts']]);
    expect((await server.call('GET', '/api/memory-runs', { key })).json.runs.map((kept: { id: string }) => kept.id)).toEqual([run.json.id]);
    expect((await server.call('GET', `/api/memory-runs/${run.json.id}`, { key })).json).toEqual(run.json);
    const settled = await server.call('POST', `/api/memory-runs/${run.json.id}/actions/0`, { key, body: { decision: 'approve' } });
    expect(settled.status).toBe(400);
    expect(settled.json.error.message).toBe(`Action 0 of run "${run.json.id}" is applied, not proposed: only proposals are approved or rejected.`);
    expect((await server.call('GET', '/api/memory-runs/no-such-run', { key })).status).toBe(404);
    expect((await server.call('POST', '/api/memory-runs', { key, body: { agents: ['gardener'] } })).status).toBe(400);
  });

  it('answers 404 for an unknown memory, 409 for a taken name, 400 naming a bad field, and keeps tenants apart', async () => {
    await server.call('POST', '/api/memories', { key, body: { value: 'Lives in Leeds', name: 'home' } });
    expect((await server.call('GET', '/api/memories/M9', { key })).json.error.code).toBe('MEMORY_NOT_FOUND');
    const taken = await server.call('POST', '/api/memories', { key, body: { value: 'Another', name: 'home' } });
    expect([taken.status, taken.json.error.code]).toEqual([409, 'MEMORY_EXISTS']);
    const bad = await server.call('POST', '/api/memories', { key, body: { value: 42 } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/value/u);
    const other = await server.keyOf('beta');
    expect((await server.call('GET', '/api/memories/home', { key: other })).status).toBe(404);
    expect((await server.call('GET', '/api/memories', { key: other })).json.memories).toEqual([]);
    expect((await server.call('POST', '/api/memory-recall', { key: other, body: { query: 'Leeds' } })).json.nothingRelevant).toBe(true);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testServer, type TestServer } from './server-fixtures.js';

let server: TestServer;
let key: string;
let sessionId: string;

beforeEach(async () => {
  server = await testServer();
  key = await server.keyOf('acme');
  sessionId = (await server.call('POST', '/api/sessions', { key, body: { title: 'Move' } })).json.id;
});

afterEach(async () => {
  await server.cleanup();
});

const texts = (facts: Array<{ text: string }>): string[] => facts.map((fact) => fact.text).sort();

describe('REST facts', () => {
  it('lets a person add, edit, remove and undo facts, each an event with the reason given', async () => {
    const added = await server.call('POST', `/api/sessions/${sessionId}/facts`, { key, body: { text: 'movers: Pickfords, booked for 12 June', kind: 'fact', reason: 'booked on the phone' } });
    expect(added.status).toBe(200);
    expect(added.json).toMatchObject({ op: 'add', actor: 'user', reason: 'booked on the phone', newText: 'movers: Pickfords, booked for 12 June' });
    const factId = added.json.factId as string;

    const edited = await server.call('PATCH', `/api/sessions/${sessionId}/facts/${factId}`, { key, body: { text: 'movers: Pickfords, moved to 19 June', reason: 'they rang to move the date' } });
    expect(edited.json).toMatchObject({ op: 'update', oldText: 'movers: Pickfords, booked for 12 June', newText: 'movers: Pickfords, moved to 19 June' });
    const pinned = await server.call('POST', `/api/sessions/${sessionId}/facts`, { key, body: { text: 'piano: never carried by the movers', kind: 'exception', reason: 'insurance' } });
    expect(pinned.status).toBe(200);
    const current = await server.call('GET', `/api/sessions/${sessionId}/facts`, { key });
    expect(texts(current.json.facts)).toEqual(['movers: Pickfords, moved to 19 June', 'piano: never carried by the movers']);
    expect(current.json.facts.find((fact: { kind: string }) => fact.kind === 'exception').pinned).toBe(true);

    const removed = await server.call('DELETE', `/api/sessions/${sessionId}/facts/${factId}`, { key, body: { reason: 'we are staying after all' } });
    expect(removed.json).toMatchObject({ op: 'remove', reason: 'we are staying after all' });
    const undone = await server.call('POST', `/api/sessions/${sessionId}/facts/events/${removed.json.id}/undo`, { key });
    expect(undone.status).toBe(200);
    expect(undone.json.reason).toBe(`undo of event ${removed.json.id}`);
    expect(texts((await server.call('GET', `/api/sessions/${sessionId}/facts`, { key })).json.facts)).toEqual(['movers: Pickfords, moved to 19 June', 'piano: never carried by the movers']);

    const events = await server.call('GET', `/api/sessions/${sessionId}/facts/events`, { key });
    expect(events.json.events.map((event: { op: string }) => event.op)).toEqual(['add', 'update', 'add', 'remove', 'add']);
  });

  it('shows the document as it stood at a past turn', async () => {
    await server.call('POST', `/api/sessions/${sessionId}/turns`, { key, body: { user: 'The removal budget is £2,400 and we need to be out by 30 June.', assistant: 'Noted.' } });
    await server.call('POST', `/api/sessions/${sessionId}/facts`, { key, body: { text: 'keys: handed to the agent on 1 July', reason: 'agreed by email' } });
    const then = await server.call('GET', `/api/sessions/${sessionId}/facts?atTurn=0`, { key });
    expect(then.status).toBe(200);
    expect(then.json.facts).toEqual([]);
    const now = await server.call('GET', `/api/sessions/${sessionId}/facts`, { key });
    expect(now.json.facts.length).toBeGreaterThan(0);
  });

  it('refuses a correction without a reason, of an unknown fact, or of a bad kind, and changes nothing', async () => {
    const before = await server.call('GET', `/api/sessions/${sessionId}/facts/events`, { key });
    const noReason = await server.call('POST', `/api/sessions/${sessionId}/facts`, { key, body: { text: 'budget: £2,400' } });
    expect(noReason.status).toBe(400);
    expect(noReason.json.error.message).toContain('body.reason');
    const emptyReason = await server.call('POST', `/api/sessions/${sessionId}/facts`, { key, body: { text: 'budget: £2,400', reason: ' ' } });
    expect(emptyReason.status).toBe(400);
    const badKind = await server.call('POST', `/api/sessions/${sessionId}/facts`, { key, body: { text: 'budget: £2,400', kind: 'rumour', reason: 'x' } });
    expect(badKind.status).toBe(400);
    expect(badKind.json.error.message).toContain('body.kind');
    const unknown = await server.call('PATCH', `/api/sessions/${sessionId}/facts/no-such-fact`, { key, body: { text: 'budget: £1', reason: 'x' } });
    expect(unknown.status).toBe(400);
    const undoUnknown = await server.call('POST', `/api/sessions/${sessionId}/facts/events/no-such-event/undo`, { key });
    expect(undoUnknown.status).toBe(400);
    expect((await server.call('GET', `/api/sessions/${sessionId}/facts/events`, { key })).json).toEqual(before.json);
  });
});

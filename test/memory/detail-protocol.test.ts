import { describe, expect, it } from 'vitest';
import { parseMarker } from '../../src/core/detail-markers.js';
import { parseMessageRef } from '../../src/core/message-ref.js';
import { detailProtocolMessage } from '../../src/memory/detail-protocol.js';
import { DETAIL_TOOLS, detailFormFor, readDetailCall } from '../../src/memory/detail-tools.js';

describe('the detail protocol prompt', () => {
  it('shows the model markers it can write, naming messages as their lines do', () => {
    const { role, content } = detailProtocolMessage({ roundsLeft: 2 });
    expect(role).toBe('system');
    expect(content).toContain('up to 2 times');
    const markers = content.match(/\[(?:REQUEST_TIER|SEARCH_EPISODIC):[^\]]+\]/gu) ?? [];
    expect(markers.length).toBe(2);
    // Every marker the prompt shows is one the reader understands, and its ref one the engine resolves.
    for (const marker of markers) expect(parseMarker(marker)).not.toBeNull();
    const tier = parseMarker(markers[0]!);
    expect(tier?.kind === 'tier' && parseMessageRef(tier.ref)).toEqual({ turn: 12, role: 'user', nth: 1 });
    expect(content).toContain('[turn 12] user:');
  });

  it('says once when one ask is left', () => {
    expect(detailProtocolMessage({ roundsLeft: 1 }).content).toContain('ask, once in this reply');
  });
});

describe('the detail protocol as tools', () => {
  it('names the two tools in its prompt, never the markers, and describes how to name a message', () => {
    const { content } = detailProtocolMessage({ roundsLeft: 2, form: 'tools' });
    expect(content).toContain('request_tier');
    expect(content).toContain('search_episodic');
    expect(content).toContain('up to 2 times');
    expect(content).toContain('[turn 12] user:" is 12u');
    expect(content).not.toMatch(/REQUEST_TIER|SEARCH_EPISODIC/u);
    expect(DETAIL_TOOLS.map((tool) => tool.name)).toEqual(['request_tier', 'search_episodic']);
  });

  it('reads the calls the model makes, refusing arguments that make no request', () => {
    const call = (name: string, args: string) => ({ id: 'c1', name, arguments: args });
    expect(readDetailCall(call('request_tier', '{"message":"12u"}'))).toMatchObject({ request: { kind: 'tier', tier: 3, ref: '12u' } });
    expect(readDetailCall(call('request_tier', '{"message":"3a2","tier":2}'))).toMatchObject({ request: { kind: 'tier', tier: 2, ref: '3a2' } });
    expect(readDetailCall(call('search_episodic', '{"query":"  gate code "}'))).toMatchObject({ request: { kind: 'search', query: 'gate code' } });
    expect(readDetailCall(call('request_tier', '{"message":"12u","tier":1}'))).toMatchObject({ problem: 'tier must be 2 or 3' });
    expect(readDetailCall(call('request_tier', 'not json'))).toMatchObject({ problem: 'its arguments are not a JSON object' });
    expect(readDetailCall(call('search_episodic', '{"query":""}'))).toMatchObject({ problem: expect.stringContaining('query') });
  });

  it('takes the tools form when the turn offers tools of its own or the setting asks, and keeps a caller tool of the same name', () => {
    const weather = { name: 'get_weather' };
    expect(detailFormFor('auto', {})).toBe('markers');
    expect(detailFormFor('auto', { tools: [weather] })).toBe('tools');
    expect(detailFormFor('tools', {})).toBe('tools');
    expect(detailFormFor('markers', { tools: [weather] })).toBe('markers');
    expect(detailFormFor('tools', { tools: [{ name: 'search_episodic' }] })).toBe('markers');
  });
});

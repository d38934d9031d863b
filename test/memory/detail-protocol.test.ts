import { describe, expect, it } from 'vitest';
import { parseMarker } from '../../src/core/detail-markers.js';
import { parseMessageRef } from '../../src/core/message-ref.js';
import { detailProtocolMessage } from '../../src/memory/detail-protocol.js';

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

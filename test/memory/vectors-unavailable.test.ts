/**
 * A store may learn only when it connects that it keeps no vectors (PostgreSQL without pgvector): its
 * `vectors.available` says true before, false after. Recall then answers lexically and nothing tries to
 * embed or search vectors, with no warning per session.
 */
import { describe, expect, it } from 'vitest';
import { createMemory } from '../../src/memory/create-memory.js';
import type { MessageVectors, Store } from '../../src/store/store.js';
import { createInMemoryStore } from '../support/in-memory-store.js';
import { recordingLogger, warnings } from '../support/recording-logger.js';

/** The in-memory store, whose vectors turn out to be unavailable once `connected` is set; counts vector calls. */
function lateVectorStore(): { store: Store; connect: () => void; calls: string[] } {
  const base = createInMemoryStore();
  let connected = false;
  const calls: string[] = [];
  const store: Store = {
    kind: 'late-vectors',
    keys: base.keys,
    close: () => base.close(),
    tenant(tenantId) {
      const inner = base.tenant(tenantId);
      const vectors: MessageVectors = {
        get available() {
          return !connected;
        },
        pending: (options) => (calls.push('pending'), inner.vectors.pending(options)),
        put: (options) => (calls.push('put'), inner.vectors.put(options)),
        nearest: (options) => (calls.push('nearest'), inner.vectors.nearest(options)),
      };
      return { ...inner, vectors };
    },
  };
  return { store, connect: () => (connected = true), calls };
}

describe('a store that finds out on connecting that it keeps no vectors', () => {
  it('recalls lexically, never embeds or searches vectors, and warns of nothing', async () => {
    const { store, connect, calls } = lateVectorStore();
    const { logger, records } = recordingLogger();
    const memory = createMemory({ store, env: {}, logger });
    try {
      const session = await memory.sessions.create({ title: 'Garden' });
      connect();
      await session.record({ user: 'We planted cherry tomatoes on the south balcony in May.', assistant: 'Lovely: cherry tomatoes, south balcony, May.' });
      await session.record({ user: 'The fence will be painted blue in June.', assistant: 'Noted: blue fence in June.' });
      const pkg = await session.context({ budget: 2000, query: 'which tomatoes did we plant' });
      expect(pkg.render().map((message) => message.content).join('\n')).toContain('cherry tomatoes');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(calls).toEqual([]);
      expect(warnings(records)).toEqual([]);
    } finally {
      await memory.close();
    }
  });
});

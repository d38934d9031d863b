/**
 * Keeps a tenant's vectors close behind its writes: after a write is announced, the session's messages
 * not yet embedded are embedded in the background (a read with a query catches up the rest itself).
 * A session written again while its work runs is caught up once more afterwards. Failures (an embedding
 * endpoint down) are logged and counted, never thrown: the next write or read tries again. (The indexer
 * counts what it embeds, whoever asked.)
 */
import type { VectorIndexer } from '../retrieval/vector-indexer.js';
import type { MemoryCounters } from './memory-counters.js';
import type { MemoryLogger } from './memory-logger.js';

export class VectorUpkeep {
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private closed = false;

  constructor(
    private readonly indexer: VectorIndexer,
    private readonly report: { logger: MemoryLogger; counters: MemoryCounters; tenant: string },
  ) {}

  /** Catch the session up in the background. */
  schedule(sessionId: string): void {
    if (this.closed) return;
    if (this.running.has(sessionId)) {
      this.again.add(sessionId);
      return;
    }
    const work = this.catchUp(sessionId).finally(() => {
      this.running.delete(sessionId);
      if (this.again.delete(sessionId)) this.schedule(sessionId);
    });
    this.running.set(sessionId, work);
  }

  private async catchUp(sessionId: string): Promise<void> {
    try {
      await this.indexer.catchUp(sessionId);
    } catch (error) {
      this.report.counters.add(sessionId, { embeddingFailures: 1 });
      this.report.logger.warn(
        { tenant: this.report.tenant, sessionId, embedder: this.indexer.embedder.id, error: error instanceof Error ? error.message : String(error) },
        'embedding new messages failed; recall uses the lexical index for them until a later write or read embeds them',
      );
    }
  }

  /** Stop scheduling and wait for the work in flight. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.running.size > 0) await Promise.all([...this.running.values()]);
  }
}

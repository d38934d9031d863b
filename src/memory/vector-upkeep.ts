/**
 * Keeps a tenant's vectors close behind its writes: after a write is announced (or a read finds a
 * backlog), the session's messages not yet embedded are embedded in the background. A session written
 * again while its work runs is caught up once more afterwards. Failures (an embedding endpoint down) are
 * logged and counted, never thrown; the indexer then rests before it tries again, and the next write or
 * read after that catches up. A session deleted meanwhile is no failure: its work just stops.
 */
import type { VectorIndexer } from '../retrieval/vector-indexer.js';
import type { TenantRepositories } from '../store/store.js';
import type { MemoryCounters } from './memory-counters.js';
import type { MemoryLogger } from './memory-logger.js';

export interface UpkeepReport {
  logger: MemoryLogger;
  counters: MemoryCounters;
  tenant: string;
  sessions: Pick<TenantRepositories['sessions'], 'get'>;
}

export class VectorUpkeep {
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private closed = false;

  constructor(
    private readonly indexer: VectorIndexer,
    private readonly report: UpkeepReport,
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

  /** One catch-up; resolves whatever happens. */
  private async catchUp(sessionId: string): Promise<void> {
    try {
      // (Inside the try: the embedder is made on first use, and making it may fail.)
      if (this.indexer.resting()) return;
      await this.indexer.catchUp(sessionId);
    } catch (error) {
      await this.failed(sessionId, error);
    }
  }

  /** Count and log a failure, unless the session is gone (then there is nothing to embed). */
  async failed(sessionId: string, error: unknown): Promise<void> {
    try {
      if ((await this.report.sessions.get({ sessionId })) === null) return;
    } catch {
      // The failure below is reported either way.
    }
    this.report.counters.add(sessionId, { embeddingFailures: 1 });
    this.report.logger.warn(
      { tenant: this.report.tenant, sessionId, error: error instanceof Error ? error.message : String(error) },
      'embedding messages failed; recall uses the lexical index for them until a later write or read embeds them',
    );
  }

  /** Stop scheduling and wait for the work in flight. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.running.size > 0) await Promise.all([...this.running.values()]);
  }
}

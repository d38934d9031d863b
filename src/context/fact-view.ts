/**
 * The base-truth document as the assembler reads it: the session's facts, when each fact's turn was
 * said, the doubts between them, and each fact's line, built at most once per view. A reader straight
 * from the store builds a view per package; a memory keeps one per session for its tenant, used only
 * while the session's fact-event sequence still ends where the view was read, so a write by this process,
 * another process, an undo or a consolidation makes the next package read afresh.
 */
import { factDoubts, type FactDoubts } from '../core/fact-doubts.js';
import { compareText } from '../core/text.js';
import type { Fact } from '../core/types.js';
import type { Tokenizer } from '../providers/tokenizer/tokenizer.js';
import type { TenantRepositories } from '../store/store.js';
import { factItem } from './fact-lines.js';
import { FactTerms } from './fact-relevance.js';
import { KIND_RANK } from './package-finish.js';
import type { Line } from './turn-options.js';

/** A session's facts as of one fact-event sequence, with what the package derives from them. */
export interface FactView {
  /** The facts, in the store's order. */
  readonly facts: readonly Fact[];
  /** When each fact's turn was said, by turn, for the `(turn N, date)` mark of its line. */
  readonly times: ReadonlyMap<number, string>;
  readonly doubts: FactDoubts;
  /**
   * The facts of the facts section (not pinned, not folded into a newer fact's line), the most
   * important kinds first and, within a kind, the freshest first.
   */
  readonly listed: readonly Fact[];
  /** The words of the listed facts, for a query's relevance. */
  terms(): FactTerms;
  /** The fact's line (one of this view's facts), built once. */
  line(fact: Fact): Line;
}

/** How the assembler reads the base-truth document of a session. */
export interface FactReader {
  read(sessionId: string): Promise<FactView>;
}

/** The view of facts read just now. */
async function readView(repositories: TenantRepositories, sessionId: string, tokenizer: Tokenizer): Promise<FactView> {
  const facts = await repositories.facts.list({ sessionId });
  const times = facts.length === 0 ? new Map<number, string>() : await repositories.messages.sentTimes({ sessionId, turns: facts.map((fact) => fact.updatedTurn) });
  // A fact a newer one may replace is shown inside the newer one's line (see `fact-lines.ts`).
  const doubts = factDoubts(facts);
  const byKind = (a: Fact, b: Fact): number => KIND_RANK[a.kind] - KIND_RANK[b.kind] || b.updatedTurn - a.updatedTurn || compareText(a.id, b.id);
  const listed = facts.filter((fact) => !fact.pinned && !doubts.folded.has(fact.id)).sort(byKind);
  const lines = new Map<string, Line>();
  let terms: FactTerms | undefined;
  return {
    facts,
    times,
    doubts,
    listed,
    terms: () => (terms ??= new FactTerms(listed)),
    line: (fact) => {
      let line = lines.get(fact.id);
      if (line === undefined) {
        line = factItem(fact, tokenizer, times, doubts);
        lines.set(fact.id, line);
      }
      return line;
    },
  };
}

/** Reads the facts from the store for every package. */
export function storeFactReader(repositories: TenantRepositories, tokenizer: Tokenizer): FactReader {
  return { read: (sessionId) => readView(repositories, sessionId, tokenizer) };
}

/**
 * Keeps the view of the sessions read most recently, checked against the session's last fact-event
 * sequence (one indexed read) before each use. Call `forget` for a session deleted or replaced whole,
 * whose new facts could end on the same sequence.
 */
export class CachedFactReader implements FactReader {
  private readonly views = new Map<string, { sequence: number; view: FactView }>();
  /** Bumped by every `forget`; a read keeps nothing when a session was forgotten while it ran. */
  private generation = 0;

  constructor(
    private readonly repositories: TenantRepositories,
    private readonly tokenizer: Tokenizer,
    private readonly maxSessions = 16,
  ) {}

  async read(sessionId: string): Promise<FactView> {
    // The sequence is read before the facts, so a write in between leaves a view keyed older than its
    // facts, which the next read replaces; never a view keyed newer than its facts.
    const start = this.generation;
    const sequence = await this.repositories.facts.lastSequence({ sessionId });
    const kept = this.views.get(sessionId);
    this.views.delete(sessionId);
    const view = kept !== undefined && kept.sequence === sequence ? kept.view : await readView(this.repositories, sessionId, this.tokenizer);
    if (this.generation !== start) return view;
    if (this.views.size >= this.maxSessions) {
      const oldest = this.views.keys().next().value;
      if (oldest !== undefined) this.views.delete(oldest);
    }
    // Most recently used last.
    this.views.set(sessionId, { sequence, view });
    return view;
  }

  forget(sessionId: string): void {
    this.generation += 1;
    this.views.delete(sessionId);
  }
}

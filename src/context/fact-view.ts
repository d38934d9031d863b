/**
 * The base-truth document as the assembler reads it: the session's facts, when each fact's turn was
 * said, the doubts between them, and each fact's line, built at most once per view. A reader straight
 * from the store builds a view per package; a memory keeps one per session for its tenant, used only
 * while the session's fact-event sequence still ends where the view was read, so a write by this process,
 * another process, an undo or a consolidation makes the next package read afresh; the lines and words
 * of the facts that did not change are kept from one view to the next.
 */
import { factDoubts, type FactDoubts } from '../core/fact-doubts.js';
import { NO_PAUSE, type Pause } from '../core/slices.js';
import { compareText } from '../core/text.js';
import type { Fact, Session } from '../core/types.js';
import type { Tokenizer } from '../providers/tokenizer/tokenizer.js';
import type { TenantRepositories } from '../store/store.js';
import { factItem, factLineFloor, factLineSources } from './fact-lines.js';
import { contentStemsOf, FactTerms } from './fact-relevance.js';
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
  /** The messages the fact's line cites, without building (and counting) the line. */
  sources(fact: Fact): string[];
  /** Fewer tokens than the fact's line can have, found without building it (`factLineFloor`), once per view. */
  floor(fact: Fact): number;
}

/** The session a document belongs to: its id, and when it was made (a session deleted and made again under its id is another). */
export type SessionKey = Pick<Session, 'id' | 'createdAt'>;

/** How the assembler reads the base-truth document of a session. */
export interface FactReader {
  /** `pause` may come between the steps of reading the document afresh (default: none). */
  read(session: SessionKey, pause?: Pause): Promise<FactView>;
}

/**
 * What a session's views keep from one to the next, so a turn that changes a few facts does not rebuild
 * every line: each fact's line (while the fact, its date and its doubts are as they were) and its words.
 */
export class KeptParts {
  private lines = new Map<string, KeptLine>();
  /** Floors by fact: facts are never changed in place. */
  private readonly floors = new WeakMap<Fact, number>();
  private stems = new Map<string, { text: string; stems: ReadonlySet<string> }>();
  /** When each turn was said (null: no time known); a stored turn's time never changes. */
  private readonly times = new Map<number, string | null>();

  /** When the facts' turns were said, reading only the turns not seen before. */
  async timesOf(facts: readonly Fact[], read: (turns: number[]) => Promise<Map<number, string>>): Promise<Map<number, string>> {
    const missing = [...new Set(facts.map((fact) => fact.updatedTurn))].filter((turn) => !this.times.has(turn));
    if (missing.length > 0) {
      const found = await read(missing);
      for (const turn of missing) this.times.set(turn, found.get(turn) ?? null);
    }
    const times = new Map<number, string>();
    for (const fact of facts) {
      const time = this.times.get(fact.updatedTurn);
      if (time !== undefined && time !== null) times.set(fact.updatedTurn, time);
    }
    return times;
  }

  /**
   * The fact's line, built again only when something it shows changed (its signature). A line that shows
   * its fact alone (no fact folded into it, no newer fact over it) is kept for the very same fact and date
   * without working the signature out.
   */
  line(fact: Fact, date: string | undefined, alone: boolean, build: () => Line, signature: () => string): Line {
    const kept = this.lines.get(fact.id);
    if (alone && kept?.alone === true && kept.fact === fact && kept.date === date) return kept.line;
    const text = signature();
    const line = kept?.signature === text ? kept.line : build();
    this.lines.set(fact.id, { signature: text, line, fact, date, alone });
    return line;
  }

  /** `factLineFloor` of the fact, worked out once per fact. */
  floorOf(fact: Fact): number {
    let floor = this.floors.get(fact);
    if (floor === undefined) this.floors.set(fact, (floor = factLineFloor(fact)));
    return floor;
  }

  /** The fact's stems when they are kept already. */
  keptStemsOf(fact: Fact): ReadonlySet<string> | undefined {
    const kept = this.stems.get(fact.id);
    return kept?.text === fact.text ? kept.stems : undefined;
  }

  stemsOf(fact: Fact): ReadonlySet<string> {
    const kept = this.keptStemsOf(fact);
    if (kept !== undefined) return kept;
    const stems = contentStemsOf(fact.text);
    this.stems.set(fact.id, { text: fact.text, stems });
    return stems;
  }

  /** Forget the facts a document no longer holds. */
  keepOnly(facts: readonly Fact[]): void {
    const ids = new Set(facts.map((fact) => fact.id));
    for (const id of this.lines.keys()) if (!ids.has(id)) this.lines.delete(id);
    for (const id of this.stems.keys()) if (!ids.has(id)) this.stems.delete(id);
  }
}

/** A line kept from one view to the next, with what it was built from. */
interface KeptLine {
  signature: string;
  line: Line;
  fact: Fact;
  date: string | undefined;
  /** The line shows its fact alone (see `KeptParts.line`). */
  alone: boolean;
}

/** What a fact shows of itself in a line. */
function ownSignature(fact: Fact, date: string | undefined): string {
  return [fact.id, fact.text, fact.kind, fact.pinned, fact.updatedTurn, date ?? '', fact.sourceMessageIds.join(',')].join('\u0000');
}

/**
 * What a fact's line shows, as one text: the fact itself, the older facts folded into it (and theirs, as
 * `fact-lines.ts` folds them) and, for a pinned one, the newer fact that may supersede it.
 */
function lineSignature(fact: Fact, times: ReadonlyMap<number, string>, doubts: FactDoubts, seen: ReadonlySet<string> = new Set()): string {
  const parts = [ownSignature(fact, times.get(fact.updatedTurn))];
  const newer = fact.pinned ? doubts.supersededBy.get(fact.id) : undefined;
  if (newer !== undefined) parts.push(`newer ${newer.id}\u0000${newer.text}\u0000${newer.createdTurn}`);
  const inside = (doubts.inside.get(fact.id) ?? []).filter((older) => !seen.has(older.id));
  if (inside.length > 0) {
    const next = new Set([...seen, fact.id]);
    for (const older of inside) parts.push(`inside [${lineSignature(older, times, doubts, next)}]`);
  }
  return parts.join('\u0001');
}

/** The value under `id`, made and kept the first time it is asked for. */
function once<V>(values: Map<string, V>, id: string, make: () => V): V {
  let value = values.get(id);
  if (value === undefined) {
    value = make();
    values.set(id, value);
  }
  return value;
}

/**
 * The view of `facts` (the store's, or what the memory that wrote them holds), reusing what `kept` holds
 * of unchanged facts. `pause` comes between reading the turns' times and working out the doubts: each
 * takes tens of milliseconds on a document of 10,000 facts read for the first time.
 */
async function viewOf(facts: readonly Fact[], repositories: TenantRepositories, sessionId: string, tokenizer: Tokenizer, kept: KeptParts, pause: Pause = NO_PAUSE): Promise<FactView> {
  const times = await kept.timesOf(facts, (turns) => repositories.messages.sentTimes({ sessionId, turns }));
  await pause();
  // A fact a newer one may replace is shown inside the newer one's line (see `fact-lines.ts`).
  const doubts = factDoubts(facts);
  const byKind = (a: Fact, b: Fact): number => KIND_RANK[a.kind] - KIND_RANK[b.kind] || b.updatedTurn - a.updatedTurn || compareText(a.id, b.id);
  const listed = facts.filter((fact) => !fact.pinned && !doubts.folded.has(fact.id)).sort(byKind);
  kept.keepOnly(facts);
  const lines = new Map<string, Line>();
  const sources = new Map<string, string[]>();
  let terms: FactTerms | undefined;
  return {
    facts,
    times,
    doubts,
    listed,
    terms: () => (terms ??= new FactTerms(listed, (fact) => kept.stemsOf(fact), (fact) => kept.keptStemsOf(fact))),
    line: (fact) =>
      once(lines, fact.id, () => {
        const alone = !doubts.inside.has(fact.id) && !(fact.pinned && doubts.supersededBy.has(fact.id));
        return kept.line(fact, times.get(fact.updatedTurn), alone, () => factItem(fact, tokenizer, times, doubts), () => lineSignature(fact, times, doubts));
      }),
    sources: (fact) => lines.get(fact.id)?.sourceMessageIds ?? once(sources, fact.id, () => factLineSources(fact, doubts)),
    floor: (fact) => kept.floorOf(fact),
  };
}

/** The view of `facts` when given, else of the facts the store lists (with a pause after listing them). */
async function readView(facts: readonly Fact[] | undefined, repositories: TenantRepositories, sessionId: string, tokenizer: Tokenizer, kept: KeptParts, pause: Pause): Promise<FactView> {
  let listed = facts;
  if (listed === undefined) {
    listed = await repositories.facts.list({ sessionId });
    await pause();
  }
  return viewOf(listed, repositories, sessionId, tokenizer, kept, pause);
}

/** Reads the facts from the store for every package. */
export function storeFactReader(repositories: TenantRepositories, tokenizer: Tokenizer): FactReader {
  return { read: (session, pause = NO_PAUSE) => readView(undefined, repositories, session.id, tokenizer, new KeptParts(), pause) };
}

/**
 * Keeps the view of the sessions read most recently, checked against the session's last fact-event
 * sequence (one indexed read) before each use. Call `forget` for a session deleted or replaced whole,
 * whose new facts could end on the same sequence.
 */
export class CachedFactReader implements FactReader {
  private readonly views = new Map<string, { createdAt: string; sequence: number; view: FactView; kept: KeptParts }>();
  /** Bumped by every `forget`; a read keeps nothing when a session was forgotten while it ran. */
  private generation = 0;

  /**
   * `known` gives the session's facts as of a fact-event sequence when the memory already holds them
   * (the state its last turn wrote), so they need not be read from the store again.
   */
  constructor(
    private readonly repositories: TenantRepositories,
    private readonly tokenizer: Tokenizer,
    private readonly known: (session: SessionKey, sequence: number) => readonly Fact[] | undefined = () => undefined,
    private readonly maxSessions = 16,
  ) {}

  /** `pause` comes between the steps of reading the document afresh (see `viewOf`): after the facts, after their turns' times. */
  async read(session: SessionKey, pause: Pause = NO_PAUSE): Promise<FactView> {
    const sessionId = session.id;
    // The sequence is read before the facts, so a write in between leaves a view keyed older than its
    // facts, which the next read replaces; never a view keyed newer than its facts.
    const start = this.generation;
    const sequence = await this.repositories.facts.lastSequence({ sessionId });
    // What was kept of a session deleted and made again under the same id (by any process) is dropped.
    const found = this.views.get(sessionId);
    const kept = found?.createdAt === session.createdAt ? found : undefined;
    this.views.delete(sessionId);
    const parts = kept?.kept ?? new KeptParts();
    // (`known` answers only for the session made at `session.createdAt`.)
    const view =
      kept !== undefined && kept.sequence === sequence ? kept.view : await readView(this.known(session, sequence), this.repositories, sessionId, this.tokenizer, parts, pause);
    if (this.generation !== start) return view;
    if (this.views.size >= this.maxSessions) {
      const oldest = this.views.keys().next().value;
      if (oldest !== undefined) this.views.delete(oldest);
    }
    // Most recently used last.
    this.views.set(sessionId, { createdAt: session.createdAt, sequence, view, kept: parts });
    return view;
  }

  forget(sessionId: string): void {
    this.generation += 1;
    this.views.delete(sessionId);
  }
}

import type { FactKind } from '../core/types.js';
import { TOKENS_PER_MESSAGE, TOKENS_PER_REPLY } from '../providers/tokenizer/tokenizer.js';
import type { ContextItem, Omission, SectionName, TurnRange } from './context-package.js';
import { dayHeading, dayOf } from './provenance-marks.js';
import { DATED_SECTIONS, KIND_HEADERS, SECTION_HEADERS } from './render.js';

/** The run of lines one day heading stands over: a dated section, or one kind's block of facts; null for a section without day headings. */
function dayBlock(section: SectionName, factKind: FactKind | null): string | null {
  if (section === 'facts') return factKind === null ? null : `facts:${factKind}`;
  return DATED_SECTIONS.has(section) ? section : null;
}

const SYSTEM_SECTIONS: ReadonlySet<SectionName> = new Set(['instructions', 'pinned', 'long-term', 'artifacts', 'facts', 'history', 'recalled']);
/** A blank line between blocks of the system message costs at most this much. */
const BLOCK_SEPARATOR = 2;

/**
 * Messages an item left out: their ids, or how to find them when the package's omissions are read (a
 * long document leaves thousands of facts out of each package, and most callers only render it).
 */
export type OmittedMessages = readonly string[] | (() => readonly string[]);

/**
 * The working state of one assembly: the items chosen so far per section and an estimate of the
 * tokens they will render to. Estimates err on the high side; the assembler measures exactly at the end.
 */
export class Assembly {
  readonly sections = new Map<SectionName, ContextItem[]>();
  private readonly kinds = new Set<FactKind>();
  /** Sections whose header (and separator) have been paid for. */
  private readonly opened = new Set<SectionName>();
  private readonly omissions = new Map<string, OmittedMessages[]>();
  /** Ranges of turns left out whole, with the messages they cover, by reason. */
  private readonly ranges = new Map<string, { turns: TurnRange; messageCount: number }>();
  /** Days whose heading each dated section (and each kind's block of facts) has paid for. */
  private readonly days = new Map<string, Set<string>>();
  private readonly dayNames = new Map<string, string | null>();
  private spent = 0;

  constructor(
    readonly budget: number,
    private readonly countShort: (text: string) => number,
  ) {}

  /** Tokens spent so far (estimated high; the exact count comes at the end). */
  get used(): number {
    return this.spent;
  }

  remaining(): number {
    return this.budget - this.spent;
  }

  /** Hold `tokens` of room for something added later; the returned function gives the room back. */
  reserve(tokens: number): () => void {
    this.spent += tokens;
    let held = true;
    return () => {
      if (held) this.spent -= tokens;
      held = false;
    };
  }

  /**
   * Something already paid for changes form (a richer tier of a recalled message or an older turn), its
   * cost changing by `delta`: done, and true, when the budget allows it.
   */
  resize(delta: number): boolean {
    if (!this.fits(delta)) return false;
    this.spent += delta;
    return true;
  }

  /** Set the items of a section whose cost was paid while they were chosen (`add` with no items, `resize`). */
  setItems(section: SectionName, items: ContextItem[]): void {
    this.sections.set(section, items);
  }

  fits(cost: number): boolean {
    return this.spent + cost <= this.budget;
  }

  /** Tokens that adding `itemCosts` to `section` would add, overheads included. */
  costOf(section: SectionName, itemCost: number, factKind: FactKind | null = null): number {
    // An opened section adds no overhead beyond its items, except a new kind of fact (the common case, checked first).
    if (section !== 'facts' && this.opened.has(section)) return itemCost;
    let cost = itemCost;
    if (this.opened.size === 0) cost += TOKENS_PER_REPLY;
    if (SYSTEM_SECTIONS.has(section)) {
      if (!this.hasSystem()) cost += TOKENS_PER_MESSAGE + this.countShort('system');
      else if (!this.opened.has(section)) cost += BLOCK_SEPARATOR;
      if (!this.opened.has(section) && section !== 'instructions') {
        cost += this.countShort(SECTION_HEADERS[section as Exclude<SectionName, 'instructions' | 'window'>]) + 1;
      }
      if (section === 'facts' && factKind !== null && !this.kinds.has(factKind)) cost += this.countShort(KIND_HEADERS[factKind]) + 1;
    }
    return cost;
  }

  /**
   * Tokens of the day heading a line sent at `time` adds to a dated section: its heading when no line
   * of that day is there yet. A line of unknown time is charged nothing; it gets a heading only after
   * dated lines, which the exact count at the end catches.
   */
  dayCost(section: SectionName, time: string | null, factKind: FactKind | null = null): number {
    const block = dayBlock(section, factKind);
    if (block === null) return 0;
    const day = this.day(time);
    if (day === null || this.days.get(block)?.has(day) === true) return 0;
    return this.countShort(dayHeading(day, section === 'facts' ? 'facts' : 'messages')) + 1;
  }

  /** Record that `section` shows a line sent at `time` (its day heading is paid for). */
  noteDay(section: SectionName, time: string | null, factKind: FactKind | null = null): void {
    const block = dayBlock(section, factKind);
    const day = this.day(time);
    if (day === null || block === null) return;
    const days = this.days.get(block) ?? new Set<string>();
    days.add(day);
    this.days.set(block, days);
  }

  private day(time: string | null): string | null {
    if (time === null) return null;
    let day = this.dayNames.get(time);
    if (day === undefined) {
      day = dayOf(time);
      this.dayNames.set(time, day);
    }
    return day;
  }

  /** Cost of a window message rendered as its own chat message. */
  windowCost(item: ContextItem): number {
    return TOKENS_PER_MESSAGE + this.countShort(item.role ?? 'user') + item.tokens;
  }

  /** Add the items if they fit; returns whether they were added. */
  tryAdd(section: SectionName, items: readonly ContextItem[], itemCost: number): boolean {
    const factKind = items[0]?.factKind ?? null;
    const itemsCost = this.costOf(section, itemCost, factKind);
    if (!this.fits(itemsCost)) return false;
    const cost = itemsCost + this.dayCost(section, items[0]?.date ?? null, factKind);
    if (!this.fits(cost)) return false;
    this.add(section, items, cost);
    return true;
  }

  /**
   * Add items whose cost (from `costOf`, and `dayCost` for dated sections) is already known; items may
   * come later for an opened section (their days noted with `noteDay`).
   */
  add(section: SectionName, items: readonly ContextItem[], cost: number): void {
    this.spent += cost;
    this.opened.add(section);
    if (items.length === 0) return;
    const list = this.items(section);
    list.push(...items);
    this.sections.set(section, list);
    for (const item of items) {
      if (item.factKind !== null) this.kinds.add(item.factKind);
      this.noteDay(section, item.date, item.factKind);
    }
  }

  items(section: SectionName): ContextItem[] {
    return this.sections.get(section) ?? [];
  }

  /** Leave out messages for `reason`: listed, or found only when the omissions are read (`omitted`). */
  omit(sourceMessageIds: OmittedMessages, reason: string): void {
    const chunks = this.omissions.get(reason) ?? [];
    chunks.push(sourceMessageIds);
    this.omissions.set(reason, chunks);
  }

  /** Leave out turns `from`–`to` whole: `messageCount` messages, not listed one by one (one range per reason: a second replaces the first). */
  omitTurns(turns: TurnRange, messageCount: number, reason: string): void {
    this.ranges.set(reason, { turns: { ...turns }, messageCount });
  }

  /** Omissions grouped by reason, listed messages first; ids are de-duplicated across the items that share a reason. */
  omitted(): Omission[] {
    const listed = [...this.omissions].map(([reason, chunks]) => {
      const ids = new Set<string>();
      for (const chunk of chunks) for (const id of typeof chunk === 'function' ? chunk() : chunk) ids.add(id);
      const sourceMessageIds = [...ids];
      return { sourceMessageIds, turns: null, messageCount: sourceMessageIds.length, reason };
    });
    const ranges = [...this.ranges].map(([reason, range]) => ({ sourceMessageIds: [], turns: { ...range.turns }, messageCount: range.messageCount, reason }));
    return [...listed, ...ranges];
  }

  private hasSystem(): boolean {
    for (const name of this.opened) if (SYSTEM_SECTIONS.has(name)) return true;
    return false;
  }
}

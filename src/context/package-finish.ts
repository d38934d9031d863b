/**
 * The last step of an assembly: sections in render order, measured exactly, trimmed from the least
 * important until the rendering fits the budget, and handed out as a package.
 */
import { mapPacked } from '../core/packed-map.js';
import { compareText } from '../core/text.js';
import { toolUseOf } from '../core/tool-calls.js';
import type { FactKind } from '../core/types.js';
import type { Tokenizer } from '../providers/tokenizer/tokenizer.js';
import type { Assembly } from './assembly.js';
import type { ContextItem, ContextPackage, ContextSection, Omission, SectionName } from './context-package.js';
import { measureSections } from './render.js';

/** Fact kinds from the most binding. */
export const KIND_RANK: Readonly<Record<FactKind, number>> = { exception: 0, constraint: 1, goal: 2, preference: 3, fact: 4 };
/** Sections in the order items are dropped when the exact count is over budget. */
const DROP_ORDER: readonly SectionName[] = ['recalled', 'history', 'long-term', 'window', 'facts', 'artifacts', 'instructions', 'pinned'];

/** A copy of an item with its own source list, without the assembler's working fields (such as `cost`). */
function copyItem(item: ContextItem): ContextItem {
  return {
    text: item.text,
    tokens: item.tokens,
    sourceMessageIds: [...item.sourceMessageIds],
    kind: item.kind,
    turn: item.turn,
    date: item.date,
    tier: item.tier,
    factKind: item.factKind,
    role: item.role,
    ...toolUseOf(item),
  };
}

function sortSections(assembly: Assembly): ContextSection[] {
  const order: SectionName[] = ['instructions', 'pinned', 'long-term', 'artifacts', 'facts', 'history', 'recalled', 'window'];
  const listed = (name: SectionName): boolean => (name !== 'artifacts' && name !== 'long-term') || assembly.items(name).length > 0;
  // Stable sort: items of one turn keep their message order.
  const byTurn = (a: ContextItem, b: ContextItem): number => (a.turn ?? 0) - (b.turn ?? 0);
  // The artifacts section is listed only when the query referred to a version that made it in; long-term only when a memory did.
  return mapPacked(order.filter(listed), (name) => {
    // The assembly's own items, which cached turn options may share: the caller gets copies (see finish).
    const items = assembly.items(name).slice();
    // Facts were chosen freshest first; they read better in the order they were established, by the day
    // they were said first, so each day's lines sit under one heading (turns imported out of time order too).
    if (name === 'history' || name === 'recalled') items.sort(byTurn);
    if (name === 'facts') items.sort((a, b) => compareText(a.date ?? '', b.date ?? '') || byTurn(a, b));
    if (name === 'window') items.sort((a, b) => (a.turn ?? 0) - (b.turn ?? 0));
    return { name, tokens: items.reduce((sum, item) => sum + item.tokens, 0), items };
  });
}

/** Which item of a section goes first when trimming: the weakest fact, the least relevant memory, else the oldest item. */
function dropIndex(section: ContextSection): number {
  if (section.name === 'long-term') return section.items.length - 1;
  if (section.name !== 'facts') return 0;
  let weakest = 0;
  section.items.forEach((item, index) => {
    const current = section.items[weakest];
    if (current === undefined || item.factKind === null || current.factKind === null) return;
    const rank = KIND_RANK[item.factKind] - KIND_RANK[current.factKind] || (current.turn ?? 0) - (item.turn ?? 0);
    if (rank > 0) weakest = index;
  });
  return weakest;
}

/**
 * Remove the item at `index` from `items`, with the items of its tool exchange: a message that called
 * tools and the results right after it (found by position, as they are sent: call ids need only be
 * unique within a turn). Returns what was removed.
 */
function takeWithPairs(items: ContextItem[], index: number): ContextItem[] {
  let start = index;
  // A result: back to the message that called it.
  while (start > 0 && items[start]?.toolCallId !== undefined) start -= 1;
  if (items[start]?.toolCalls === undefined) start = index;
  let end = start + 1;
  if (items[start]?.toolCalls !== undefined) while (items[end]?.toolCallId !== undefined) end += 1;
  return items.splice(start, end - start);
}

/** Measure the rendering exactly and drop lowest-priority items until it fits. */
export function finish(assembly: Assembly, budget: number, tokenizer: Tokenizer, warnings: string[]): ContextPackage {
  const sections = sortSections(assembly);
  let { messages: rendered, tokens } = measureSections(sections, tokenizer);
  while (tokens > budget) {
    // Drop from the least important non-empty section only, then measure again.
    const section = DROP_ORDER.map((name) => sections.find((candidate) => candidate.name === name)).find(
      (candidate) => candidate !== undefined && candidate.items.length > 0,
    );
    if (section === undefined) break;
    let excess = tokens - budget;
    while (excess > 0 && section.items.length > 0) {
      // A tool call goes with its results, and a result with its call: the model never sees half of one.
      for (const item of takeWithPairs(section.items, dropIndex(section))) {
        assembly.omit(item.sourceMessageIds, 'budget: trimmed to fit the exact token count');
        if (section.name === 'pinned') warnings.push(`Pinned item "${item.text}" was dropped to fit a budget of ${budget} tokens.`);
        excess -= item.tokens + (section.name === 'window' ? 4 : 1);
      }
    }
    section.tokens = section.items.reduce((sum, item) => sum + item.tokens, 0);
    ({ messages: rendered, tokens } = measureSections(sections, tokenizer));
  }
  const messages = rendered;
  // (Worked out when first read: a chat turn only renders. The assembly is let go once they are.)
  let omitted: Omission[] | undefined;
  let source: Assembly | null = assembly;
  const ownOmitted = (): Omission[] => {
    omitted ??= source?.omitted() ?? [];
    source = null;
    return omitted;
  };
  // The caller owns the sections it reads, so they are copies, made when first read: a chat turn only renders.
  let owned: ContextSection[] | undefined;
  const ownSections = (): ContextSection[] =>
    (owned ??= mapPacked(sections, (section) => ({ name: section.name, tokens: section.tokens, items: mapPacked(section.items, copyItem) })));
  return {
    budget,
    tokens,
    tokenizer: tokenizer.name,
    get sections() {
      return ownSections();
    },
    get omitted() {
      return ownOmitted();
    },
    set omitted(value) {
      omitted = value;
      source = null;
    },
    warnings,
    render: () => messages.map((message) => ({ ...message })),
    toJSON: () => ({
      budget,
      tokens,
      messages: messages.map((message) => ({ ...message })),
      // The caller's copies once made (they may have changed them), else the assembly's items, copied here.
      sections: (owned ?? sections).map((section) => ({
        name: section.name,
        tokens: section.tokens,
        items: section.items.map((item) => ({ text: item.text, tokens: item.tokens, sourceMessageIds: [...item.sourceMessageIds], kind: item.kind, turn: item.turn, date: item.date, tier: item.tier })),
      })),
      omitted: ownOmitted().map((omission) => ({
        sourceMessageIds: [...omission.sourceMessageIds],
        turns: omission.turns === null ? null : { ...omission.turns },
        messageCount: omission.messageCount,
        reason: omission.reason,
      })),
      warnings: [...warnings],
    }),
  };
}

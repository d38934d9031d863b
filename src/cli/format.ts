import { messageText, roleLabel } from '../core/tool-calls.js';
import { doubtNote, factDoubts } from '../core/fact-doubts.js';
import { FACT_KINDS, type ChatMessage, type Fact, type FactKind } from '../core/types.js';

export { formatNumber, plural } from '../core/counted.js';

/** 0.8712 → "87.1". */
export function formatPercent(fraction: number): string {
  return (fraction * 100).toFixed(1);
}

/** An ISO-8601 time as "2025-04-12 07:00" (UTC). */
export function formatTime(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/u.exec(iso);
  return match === null ? iso : `${match[1]} ${match[2]}`;
}

/** Shorten text to `max` characters on one line, ending with "…" when cut. */
export function clip(text: string, max: number): string {
  const line = text.replace(/\s+/gu, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, Math.max(0, max - 1))}…`;
}

export type Align = 'left' | 'right';

export interface Column {
  header: string;
  align?: Align;
}

/** A plain-text table: a header row, a rule, then the rows, columns padded to their widest cell. */
export function formatTable(columns: readonly Column[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = columns.map((column, index) => Math.max(column.header.length, ...rows.map((row) => (row[index] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    columns
      .map((column, index) => {
        const cell = cells[index] ?? '';
        const width = widths[index] ?? 0;
        return column.align === 'right' ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  return [line(columns.map((column) => column.header)), widths.map((width) => '─'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

/** Rendered chat messages with a header line per role (a tool result's names the call it answers), tool calls as lines. */
export function formatChatMessages(messages: readonly ChatMessage[]): string {
  return messages
    .map((message) => {
      const header = roleLabel(message);
      return `── ${header} ${'─'.repeat(Math.max(3, 60 - header.length))}\n${messageText(message)}`;
    })
    .join('\n\n');
}

const KIND_TITLES: Readonly<Record<FactKind, string>> = {
  constraint: 'Constraints',
  exception: 'Exceptions',
  goal: 'Goals',
  preference: 'Preferences',
  fact: 'Facts',
};


/** The base-truth document grouped by kind, pinned exceptions first, each line with its turn. */
export function formatFacts(facts: readonly Fact[]): string {
  if (facts.length === 0) return '(no facts)';
  const groups: Array<{ title: string; facts: Fact[] }> = [{ title: 'Pinned exceptions', facts: facts.filter((fact) => fact.pinned) }];
  for (const kind of FACT_KINDS) groups.push({ title: KIND_TITLES[kind], facts: facts.filter((fact) => !fact.pinned && fact.kind === kind) });
  const { supersededBy } = factDoubts(facts);
  return groups
    .filter((group) => group.facts.length > 0)
    .map((group) => [`${group.title}:`, ...group.facts.map((fact) => `  - ${fact.text} (turn ${fact.updatedTurn})${doubtNote(supersededBy.get(fact.id))}`)].join('\n'))
    .join('\n');
}

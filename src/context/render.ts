import { FACT_KINDS, type ChatMessage, type FactKind } from '../core/types.js';
import { toolUseOf } from '../core/tool-calls.js';
import type { Tokenizer } from '../providers/tokenizer/tokenizer.js';
import type { ContextItem, ContextSection, SectionName } from './context-package.js';
import { dayHeadings, factMark } from './provenance-marks.js';

export const SECTION_HEADERS: Readonly<Record<Exclude<SectionName, 'instructions' | 'window'>, string>> = {
  pinned: '## Pinned exceptions (never violate these)',
  'long-term': '## From long-term memory (earlier conversations; key, then why it is here)',
  artifacts: '## Artifact versions the user refers to',
  facts: '## What this conversation has established',
  history: '## Earlier in the conversation',
  recalled: '## Recalled from older turns',
};

export const KIND_HEADERS: Readonly<Record<FactKind, string>> = {
  constraint: '### Constraints',
  exception: '### Exceptions',
  goal: '### Goals',
  preference: '### Preferences',
  fact: '### Facts',
};

/** Sections of message lines, shown under day headings (see `provenance-marks.ts`). */
export const DATED_SECTIONS: ReadonlySet<SectionName> = new Set(['history', 'recalled']);

/** Render sections to chat messages: the memory as one system message (blocks apart by a blank line), then the window verbatim. */
export function renderSections(sections: readonly ContextSection[]): ChatMessage[] {
  const lines: string[] = [];
  const window: ChatMessage[] = [];
  for (const section of sections) {
    if (section.items.length === 0) continue;
    if (section.name === 'window') {
      for (const item of section.items) window.push({ role: item.role ?? 'user', content: item.text, ...toolUseOf(item) });
      continue;
    }
    if (lines.length > 0) lines.push('');
    if (section.name === 'facts') {
      addFactLines(lines, section.items);
      continue;
    }
    if (section.name !== 'instructions') lines.push(SECTION_HEADERS[section.name]);
    // Message lines sit under the heading of the day they were said.
    const headings = DATED_SECTIONS.has(section.name) ? dayHeadings(section.items.map((item) => item.date)) : null;
    section.items.forEach((item, index) => {
      const heading = headings?.get(index);
      if (heading !== undefined) lines.push(heading);
      lines.push(item.kind === 'fact' ? factLine(item, true) : item.text);
    });
  }
  return lines.length > 0 ? [{ role: 'system', content: lines.join('\n') }, ...window] : window;
}

/** The rendered messages and their exact tokens. */
export function measureSections(sections: readonly ContextSection[], tokenizer: Tokenizer): { messages: ChatMessage[]; tokens: number } {
  const messages = renderSections(sections);
  return { messages, tokens: tokenizer.countMessages(messages) };
}

/**
 * A fact line as rendered: its text and the turn it was last established, with the date when `dated`
 * (a pinned line; in the facts section the date is its day heading's).
 */
export function factLine(item: Pick<ContextItem, 'text' | 'turn' | 'date'>, dated: boolean): string {
  return item.turn === null ? item.text : `${item.text}${factMark(item.turn, item.date, dated)}`;
}

function addFactLines(lines: string[], items: readonly ContextItem[]): void {
  lines.push(SECTION_HEADERS.facts);
  for (const kind of FACT_KINDS) {
    const ofKind = items.filter((item) => item.factKind === kind);
    if (ofKind.length === 0) continue;
    lines.push(KIND_HEADERS[kind]);
    const headings = dayHeadings(ofKind.map((item) => item.date), 'facts');
    ofKind.forEach((item, index) => {
      const heading = headings.get(index);
      if (heading !== undefined) lines.push(heading);
      lines.push(factLine(item, false));
    });
  }
}

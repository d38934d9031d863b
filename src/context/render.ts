import { FACT_KINDS, type ChatMessage, type FactKind } from '../core/types.js';
import type { ContextItem, ContextSection, SectionName } from './context-package.js';

export const SECTION_HEADERS: Readonly<Record<Exclude<SectionName, 'instructions' | 'window'>, string>> = {
  pinned: '## Pinned exceptions (never violate these)',
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


/** Render sections to chat messages: the memory as one system message, then the window verbatim. */
export function renderSections(sections: readonly ContextSection[]): ChatMessage[] {
  const blocks: string[] = [];
  const window: ChatMessage[] = [];
  for (const section of sections) {
    if (section.items.length === 0) continue;
    switch (section.name) {
      case 'instructions':
        blocks.push(section.items.map((item) => item.text).join('\n'));
        break;
      case 'window':
        for (const item of section.items) window.push({ role: item.role ?? 'user', content: item.text });
        break;
      case 'facts':
        blocks.push(renderFacts(section.items));
        break;
      default:
        blocks.push([SECTION_HEADERS[section.name], ...section.items.map((item) => item.text)].join('\n'));
    }
  }
  const messages: ChatMessage[] = [];
  if (blocks.length > 0) messages.push({ role: 'system', content: blocks.join('\n\n') });
  return [...messages, ...window];
}

function renderFacts(items: readonly ContextItem[]): string {
  const lines = [SECTION_HEADERS.facts];
  for (const kind of FACT_KINDS) {
    const ofKind = items.filter((item) => item.factKind === kind);
    if (ofKind.length === 0) continue;
    lines.push(KIND_HEADERS[kind], ...ofKind.map((item) => item.text));
  }
  return lines.join('\n');
}

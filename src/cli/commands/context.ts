import type { Command } from 'commander';
import type { ContextPackage, Omission, SectionName } from '../../context/context-package.js';
import { formatChatMessages, formatNumber, plural } from '../format.js';
import { openNamedSession } from '../named-session.js';
import { writeLine, type CliIo } from '../io.js';
import { globalOptions, withMemory } from '../open-memory.js';
import { integerOption } from '../parse.js';

function itemCount(pkg: ContextPackage, ...names: SectionName[]): number {
  return pkg.sections.filter((section) => names.includes(section.name)).reduce((sum, section) => sum + section.items.length, 0);
}

/**
 * What the package left out, in words: the older turns left out whole, then the distinct messages listed
 * for other reasons (a fact's sources may be of those turns too, so the two are not added up).
 */
export function omittedSummary(pkg: ContextPackage): string {
  const listed = new Set(pkg.omitted.flatMap((omission) => omission.sourceMessageIds)).size;
  const rangeText = ({ turns, messageCount }: Omission): string[] => (turns === null ? [] : [`turns ${turns.from}–${turns.to} (${plural(messageCount, 'message')})`]);
  const ranges = pkg.omitted.flatMap(rangeText);
  if (ranges.length === 0) return `omitted ${plural(listed, 'message')}`;
  return `omitted ${ranges.join(', ')}${listed === 0 ? '' : ` and ${plural(listed, 'message')} for other reasons`}`;
}

/**
 * `<tokens> / <budget> tokens · [<l> long-term memories ·] <n> facts · <m> window messages · <k> history lines · <r> recalled · omitted …`
 * (see `omittedSummary`).
 */
export function contextFooter(pkg: ContextPackage): string {
  const memories = itemCount(pkg, 'long-term');
  return [
    `${formatNumber(pkg.tokens)} / ${formatNumber(pkg.budget)} tokens`,
    ...(memories === 0 ? [] : [plural(memories, 'long-term memory', 'long-term memories')]),
    plural(itemCount(pkg, 'pinned', 'facts'), 'fact'),
    plural(itemCount(pkg, 'window'), 'window message'),
    plural(itemCount(pkg, 'history'), 'history line'),
    `${formatNumber(itemCount(pkg, 'recalled'))} recalled`,
    omittedSummary(pkg),
  ].join(' · ');
}

export function registerContextCommand(program: Command, io: CliIo): void {
  program
    .command('context')
    .description('assemble the context package a model call would see, within a token budget')
    .argument('<session>', 'session id')
    .option('--budget <tokens>', 'hard limit on the rendered tokens (default: the contextBudget setting, STRATA_CONTEXT_BUDGET, 30,000)', integerOption(1))
    .option('--query <text>', 'what the next message is about (ranks older material)')
    .action(async (sessionId: string, options: { budget?: number; query?: string }, command: Command) => {
      const globals = globalOptions(command);
      await withMemory(globals, io, async (memory) => {
        const handle = await openNamedSession(memory, sessionId);
        const pkg = await handle.context({ budget: options.budget ?? memory.settings.contextBudget, ...(options.query === undefined ? {} : { query: options.query }) });
        if (globals.json) {
          io.stdout.write(`${JSON.stringify(pkg.toJSON())}\n`);
        } else {
          const messages = pkg.render();
          writeLine(io.stdout, messages.length === 0 ? '(the package is empty: nothing fits the budget)' : formatChatMessages(messages));
          writeLine(io.stdout);
          writeLine(io.stdout, contextFooter(pkg));
        }
        for (const warning of pkg.warnings) writeLine(io.stderr, `strata: warning: ${warning}`);
      });
    });
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import type { Command } from 'commander';
import type { ContextItem, ContextPackage, TurnRange } from '../../context/context-package.js';
import type { ChatMessage, Message } from '../../core/types.js';
import { CliError, EXIT } from '../exit-codes.js';
import { formatChatMessages, formatFacts, formatNumber, formatPercent, formatTable, plural } from '../format.js';
import { writeJson, writeLine, type CliIo } from '../io.js';
import { globalOptions, withMemory } from '../open-memory.js';
import { packageInfo } from '../package-root.js';
import { integerOption } from '../parse.js';
import { readInputFile } from '../read-input.js';

const DEFAULT_BUDGET = 600;

/** A demo conversation file: `{ id?, budget?, messages: [...] }` (extra fields such as keyFacts are ignored). */
interface DemoConversation {
  id: string;
  budget: number | null;
  messages: unknown[];
}

function readConversation(file: string, cwd: string): DemoConversation {
  const text = readInputFile(file, cwd);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(`${file} is not valid JSON: ${(error as Error).message}`, EXIT.usage, { cause: error });
  }
  const record = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { messages: value };
  if (!Array.isArray(record.messages)) throw new CliError(`${file} has no "messages" array; expected { "messages": [{ "role", "content" }, ...] }.`, EXIT.usage);
  const budget = record.budget;
  if (budget !== undefined && (typeof budget !== 'number' || !Number.isSafeInteger(budget) || budget < 1)) {
    throw new CliError(`${file}: "budget" must be a whole number ≥ 1.`, EXIT.usage);
  }
  return {
    id: typeof record.id === 'string' && record.id.trim() !== '' ? record.id : basename(file, extname(file)),
    budget: budget ?? null,
    messages: record.messages,
  };
}

/** The chat messages of the file the tokenizer can count (plain string contents of known roles). */
function countableMessages(messages: readonly unknown[]): ChatMessage[] {
  const result: ChatMessage[] = [];
  for (const message of messages) {
    if (typeof message !== 'object' || message === null) continue;
    const { role, content } = message as { role?: unknown; content?: unknown };
    if ((role === 'system' || role === 'user' || role === 'assistant') && typeof content === 'string') result.push({ role, content });
  }
  return result;
}

function sectionTable(pkg: ContextPackage): string {
  return formatTable(
    [{ header: 'section' }, { header: 'items', align: 'right' }, { header: 'tokens', align: 'right' }],
    pkg.sections.map((section) => [section.name, formatNumber(section.items.length), formatNumber(section.tokens)]),
  );
}

/** Reasons listed one by one; the rest are summed up in one line. */
const OMITTED_REASONS_SHOWN = 8;

/**
 * The messages each omission covers, by reason: the listed ones, and for a range of turns the messages of
 * those turns the package shows nowhere as a message (the demo has the whole conversation at hand to name them).
 */
function omittedByReason(pkg: ContextPackage, messages: readonly Message[]): Map<string, Set<string>> {
  const shownAsMessage = (item: ContextItem): string[] => (item.kind === 'message' || item.kind === 'turn-summary' ? item.sourceMessageIds : []);
  const shown = new Set(pkg.sections.flatMap((section) => section.items.flatMap(shownAsMessage)));
  const inRange = ({ from, to }: TurnRange): string[] => messages.filter((message) => message.turn >= from && message.turn <= to && !shown.has(message.id)).map((message) => message.id);
  const byReason = new Map<string, Set<string>>();
  for (const omission of pkg.omitted) {
    const ids = byReason.get(omission.reason) ?? new Set<string>();
    for (const id of [...omission.sourceMessageIds, ...(omission.turns === null ? [] : inRange(omission.turns))]) ids.add(id);
    byReason.set(omission.reason, ids);
  }
  return byReason;
}

function omittedReport(pkg: ContextPackage, messages: readonly Message[]): string {
  if (pkg.omitted.length === 0) return 'Nothing was omitted.';
  const byReason = omittedByReason(pkg, messages);
  const groups = [...byReason].sort((a, b) => b[1].size - a[1].size);
  // A message may be left out for two reasons (its turn and a fact it gave): say so, so the lines add up.
  const reasonsOf = new Map<string, number>();
  for (const [, ids] of groups) for (const id of ids) reasonsOf.set(id, (reasonsOf.get(id) ?? 0) + 1);
  const listed = groups.reduce((sum, [, ids]) => sum + ids.size, 0);
  const several = [...reasonsOf.values()].filter((count) => count > 1).length;
  const overlap = several === 0 ? '' : `; ${several} of them for more than one reason, so the reasons below count ${listed.toLocaleString('en-US')}`;
  const lines = [`Omitted (${plural(reasonsOf.size, 'message')}${overlap}):`];
  for (const [reason, ids] of groups.slice(0, OMITTED_REASONS_SHOWN)) lines.push(`  ${plural(ids.size, 'message')}: ${reason}`);
  const rest = groups.slice(OMITTED_REASONS_SHOWN);
  if (rest.length > 0) {
    const ids = new Set(rest.flatMap(([, group]) => [...group]));
    lines.push(`  … ${plural(rest.length, 'more reason')} (${plural(ids.size, 'message')})`);
  }
  return lines.join('\n');
}

export function registerDemoCommand(program: Command, io: CliIo): void {
  program
    .command('demo')
    .description('replay a conversation into a temporary database and show its memory and a context package')
    .option('--budget <tokens>', 'context budget (default: the file\'s "budget", else 600)', integerOption(1))
    .option('--query <text>', 'what the next message is about')
    .option('--file <path>', 'conversation JSON (default: the bundled examples/demo-conversation.json)')
    .option('--keep', 'keep the temporary database and print its path')
    .action(async (options: { budget?: number; query?: string; file?: string; keep?: boolean }, command: Command) => {
      const globals = globalOptions(command);
      const file = options.file ?? join(packageInfo().root, 'examples', 'demo-conversation.json');
      const conversation = readConversation(file, io.cwd);
      const budget = options.budget ?? conversation.budget ?? DEFAULT_BUDGET;
      const folder = mkdtempSync(join(tmpdir(), 'strata-demo-'));
      try {
        await withMemory(
          globals,
          io,
          async (memory) => {
            const imported = await memory.sessions.import({ data: { messages: conversation.messages }, source: file, title: conversation.id });
            const handle = await memory.sessions.open(imported.sessionId);
            const facts = await handle.facts();
            const pkg = await handle.context({ budget, ...(options.query === undefined ? {} : { query: options.query }) });
            // The conversation sent whole as chat messages (what the package replaces), and its text alone (what `sessions` lists).
            const originalTokens = memory.tokenizer.countMessages(countableMessages(conversation.messages));
            const { tokenCount } = await handle.info();
            const tokenReduction = originalTokens === 0 ? 0 : 1 - pkg.tokens / originalTokens;
            if (globals.json) {
              writeJson(io.stdout, {
                conversation: conversation.id,
                originalTokens,
                textTokens: tokenCount,
                budget,
                contextTokens: pkg.tokens,
                tokenReduction,
                facts,
                package: pkg.toJSON(),
              });
              return;
            }
            const out = io.stdout;
            writeLine(out, `Conversation ${conversation.id}: ${plural(imported.turns, 'turn')}, ${plural(imported.messages, 'message')}, ${formatNumber(tokenCount)} tokens of text, ${formatNumber(originalTokens)} as chat messages`);
            writeLine(out);
            writeLine(out, `Memory (${plural(facts.length, 'fact')}):`);
            writeLine(out, formatFacts(facts));
            writeLine(out);
            writeLine(out, `Context package for a ${formatNumber(budget)}-token budget${options.query === undefined ? '' : ` and the query "${options.query}"`}:`);
            writeLine(out, sectionTable(pkg));
            writeLine(out);
            writeLine(out, formatChatMessages(pkg.render()));
            writeLine(out);
            writeLine(out, omittedReport(pkg, await handle.messages()));
            for (const warning of pkg.warnings) writeLine(io.stderr, `strata: warning: ${warning}`);
            writeLine(out);
            writeLine(out, `Token reduction: ${formatNumber(originalTokens)} → ${formatNumber(pkg.tokens)} tokens (${formatPercent(tokenReduction)} % smaller)`);
          },
          join(folder, 'demo.db'),
        );
      } finally {
        if (options.keep === true) writeLine(globals.json ? io.stderr : io.stdout, `Kept the demo database: ${join(folder, 'demo.db')}`);
        else rmSync(folder, { recursive: true, force: true });
      }
    });
}

/** `strata memories recall <query…>`: what long-term memory holds that bears on a query, each with why. */
import { Option, type Command } from 'commander';
import { EDGE_TYPES } from '../../core/long-term-memory.js';
import type { RecallOptions } from '../../memory/long-term-api.js';
import { CliError, EXIT } from '../exit-codes.js';
import { writeJson, writeLine, type CliIo } from '../io.js';
import { globalOptions, withMemory } from '../open-memory.js';
import { collect, integerOption } from '../parse.js';
import { recallTable } from './memories-format.js';

interface RecallFlags {
  tag: string[];
  depth?: number;
  edge: string[];
  limit?: number;
  changedSince?: string;
  notReviewedSince?: string;
  asOf?: string;
}

/** The API's options from the words and flags (the API checks them and names what is wrong). */
function recallOptions(words: readonly string[], flags: RecallFlags): RecallOptions {
  return {
    query: words.join(' '),
    ...(flags.limit === undefined ? {} : { limit: flags.limit }),
    ...(flags.tag.length === 0 ? {} : { tags: flags.tag }),
    ...(flags.depth === undefined ? {} : { depth: flags.depth }),
    ...(flags.edge.length === 0 ? {} : { edgeTypes: flags.edge as RecallOptions['edgeTypes'] }),
    ...(flags.changedSince === undefined ? {} : { changedSince: flags.changedSince }),
    ...(flags.notReviewedSince === undefined ? {} : { notReviewedSince: flags.notReviewedSince }),
    ...(flags.asOf === undefined ? {} : { asOf: flags.asOf }),
  };
}

export function registerRecall(memories: Command, io: CliIo): void {
  memories
    .command('recall')
    .description('the memories that bear on a query, best first, each with why (marks them as accessed)')
    .argument('[query...]', 'the question or message (may be left out with --changed-since, --not-reviewed-since, --as-of or --tag)')
    .option('--tag <tag>', 'only memories carrying this tag (repeat: all must be carried)', collect, [])
    .option('--depth <n>', 'edges followed from what the query finds: 0, 1 (default) or 2', integerOption(0))
    .addOption(new Option('--edge <type>', 'follow only edges of this type (repeat for several)').choices(EDGE_TYPES).argParser(collect).default([]))
    .option('--limit <n>', 'memories at most (default 8)', integerOption(1))
    .option('--changed-since <time>', 'only memories changed since (2026-05-01)')
    .option('--not-reviewed-since <time>', 'only memories not reviewed since')
    .option('--as-of <time>', 'each memory as it stood then')
    .action(async (words: string[], flags: RecallFlags, command: Command) => {
      const filtered = flags.tag.length > 0 || flags.changedSince !== undefined || flags.notReviewedSince !== undefined || flags.asOf !== undefined;
      if (words.length === 0 && !filtered) throw new CliError('Say what to recall: a query, or --tag, --changed-since, --not-reviewed-since or --as-of.', EXIT.usage);
      const globals = globalOptions(command);
      await withMemory(globals, io, async (memory) => {
        const recall = await memory.memories.recall(recallOptions(words, flags));
        if (globals.json) writeJson(io.stdout, recall);
        else if (recall.nothingRelevant) writeLine(io.stdout, 'Nothing in long-term memory bears on that.');
        else writeLine(io.stdout, recallTable(io.stdout, recall.memories));
      });
    });
}

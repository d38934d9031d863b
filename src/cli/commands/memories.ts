import { Argument, type Command } from 'commander';
import { EDGE_TYPES, type EdgeType } from '../../core/long-term-memory.js';
import type { Memory } from '../../memory/create-memory.js';
import type { LongTermMemories, LongTermMemory, MemoryEdge } from '../../memory/long-term-api.js';
import { CliError, EXIT } from '../exit-codes.js';
import { writeJson, writeLine, type CliIo } from '../io.js';
import { globalOptions, withMemory, type GlobalOptions } from '../open-memory.js';
import { collect, integerOption } from '../parse.js';
import { registerMaintenance } from './memories-maintenance.js';
import { registerRecall } from './memories-recall.js';
import { edgeLine, memoryDetails, memoryLine, memoryTable, tagCountTable, tagsText, versionTable, type KeyedEdge } from './memories-format.js';

/** `--reason` as the API takes it: left out when not given, so the API's own default reason applies. */
function reasonOf(options: { reason?: string }): { reason?: string } {
  return options.reason === undefined ? {} : { reason: options.reason };
}

/** Open the memory of the command's globals and run `work` with it. */
function run(command: Command, io: CliIo, work: (memory: Memory, globals: GlobalOptions) => Promise<void>): Promise<void> {
  const globals = globalOptions(command);
  return withMemory(globals, io, (memory) => work(memory, globals));
}

/** The edges with the keys of the memories at both ends, and those memories by id. */
async function keyedEdges(memories: LongTermMemories, edges: readonly MemoryEdge[]): Promise<{ edges: KeyedEdge[]; others: Map<string, LongTermMemory> }> {
  const ids = [...new Set(edges.flatMap((edge) => [edge.fromId, edge.toId]))];
  const others = new Map((await Promise.all(ids.map((id) => memories.get(id)))).map((memory) => [memory.id, memory]));
  const keyOf = (id: string): string => others.get(id)?.key ?? id;
  return { edges: edges.map((edge) => ({ ...edge, fromKey: keyOf(edge.fromId), toKey: keyOf(edge.toId) })), others };
}

const REF = ['<ref>', 'the memory: its key (M1), name (mom-birthday) or id'] as const;
const REASON = ['--reason <reason>', 'why you make the change (recorded with it)'] as const;

function registerReading(memories: Command, io: CliIo): void {
  memories
    .command('list', { isDefault: true })
    .description('list memories, the most recently changed first')
    .option('--tag <tag>', 'only memories carrying this tag (repeat for several: all must be carried)', collect, [])
    .option('--deprecated', 'include deprecated memories (not with --tag)')
    .option('--limit <n>', 'how many memories to list', integerOption(1), 50)
    .option('--offset <n>', 'skip this many first', integerOption(0), 0)
    .action(async (options: { tag: string[]; deprecated?: boolean; limit: number; offset: number }, command: Command) => {
      const deprecated = options.deprecated === true;
      if (deprecated && options.tag.length > 0) throw new CliError('--deprecated and --tag do not go together: tagged memories are listed only while current.', EXIT.usage);
      await run(command, io, async (memory, globals) => {
        const list = await memory.memories.list({ limit: options.limit, offset: options.offset, ...(options.tag.length > 0 ? { tags: options.tag } : {}), deprecated });
        if (globals.json) writeJson(io.stdout, list);
        else if (list.length > 0) writeLine(io.stdout, memoryTable(io.stdout, list, { deprecated }));
        else if (options.tag.length > 0) writeLine(io.stdout, `No current memories tagged ${options.tag.join(' and ')}.`);
        else if (options.offset > 0) writeLine(io.stdout, `No memories after the first ${options.offset}.`);
        else writeLine(io.stdout, `No memories in tenant "${memory.tenantId}". Add one with \`strata memories add <value…>\`.`);
      });
    });

  memories
    .command('show')
    .description('show a memory: its fields, tags, edges and where it came from')
    .argument(...REF)
    .action(async (ref: string, _options: unknown, command: Command) => {
      await run(command, io, async ({ memories: api }, globals) => {
        const memory = await api.get(ref);
        const [tags, edges, versions] = await Promise.all([api.tagsOf(memory.id), api.edges(memory.id), api.history(memory.id)]);
        const keyed = await keyedEdges(api, edges);
        if (globals.json) writeJson(io.stdout, { memory, tags, edges: keyed.edges });
        else writeLine(io.stdout, memoryDetails(memory, { tags, edges: keyed.edges, others: keyed.others, first: versions[0] }));
      });
    });

  memories
    .command('history')
    .description('every version of a memory, oldest first')
    .argument(...REF)
    .action(async (ref: string, _options: unknown, command: Command) => {
      await run(command, io, async ({ memories: api }, globals) => {
        const versions = await api.history(ref);
        if (globals.json) writeJson(io.stdout, versions);
        else writeLine(io.stdout, versionTable(io.stdout, versions));
      });
    });

  memories
    .command('tags')
    .description('every tag on a current memory, with how many carry it')
    .action(async (_options: unknown, command: Command) => {
      await run(command, io, async ({ memories: api }, globals) => {
        const counts = await api.tags();
        if (globals.json) writeJson(io.stdout, counts);
        else writeLine(io.stdout, counts.length === 0 ? 'No tags. Add some with `strata memories tag <ref> <tag…>`.' : tagCountTable(counts));
      });
    });
}

function registerChanges(memories: Command, io: CliIo): void {
  /** A change that answers the memory: printed as JSON, or as `<what> M1 (version n): value`. */
  const printed = (globals: GlobalOptions, what: string, memory: LongTermMemory): void => {
    if (globals.json) writeJson(io.stdout, memory);
    else writeLine(io.stdout, `${what} ${memory.key} (version ${memory.version}): ${memory.value}`);
  };

  memories
    .command('add')
    .description('remember something: a new memory with the next key')
    .argument('<value...>', 'what to remember (1 to 500 characters; the words are joined by spaces)')
    .option('--name <name>', 'a name unique in the tenant: lower-case letters, digits, ".", "_", "-" (like mom-birthday)')
    .option('--tag <tag>', 'a tag to put on it (repeat for several)', collect, [])
    .option(...REASON)
    .action(async (words: string[], options: { name?: string; tag: string[]; reason?: string }, command: Command) => {
      await run(command, io, async ({ memories: api }, globals) => {
        const memory = await api.add({ value: words.join(' '), ...(options.name === undefined ? {} : { name: options.name }), tags: options.tag, ...reasonOf(options) });
        if (globals.json) writeJson(io.stdout, memory);
        else writeLine(io.stdout, memoryLine(memory));
      });
    });

  memories
    .command('change')
    .description('give a memory a new value (its next version; the old one is kept)')
    .argument(...REF)
    .argument('<value...>', 'the new value (the words are joined by spaces)')
    .option(...REASON)
    .action(async (ref: string, words: string[], options: { reason?: string }, command: Command) => {
      await run(command, io, async ({ memories: api }, globals) => printed(globals, 'Changed', await api.change(ref, { value: words.join(' '), ...reasonOf(options) })));
    });

  memories
    .command('undo')
    .description("undo a memory's last change (value and deprecation), as a new version")
    .argument(...REF)
    .option(...REASON)
    .action(async (ref: string, options: { reason?: string }, command: Command) => {
      await run(command, io, async ({ memories: api }, globals) => printed(globals, 'Undid the last change of', await api.undo(ref, reasonOf(options))));
    });

  memories
    .command('deprecate')
    .description('mark a memory deprecated (kept, listed only with --deprecated), or current again with --restore')
    .argument(...REF)
    .option('--restore', 'make it current again')
    .option(...REASON)
    .action(async (ref: string, options: { restore?: boolean; reason?: string }, command: Command) => {
      const restore = options.restore === true;
      await run(command, io, async ({ memories: api }, globals) =>
        printed(globals, restore ? 'Restored' : 'Deprecated', await api.deprecate(ref, { deprecated: !restore, ...reasonOf(options) })),
      );
    });

  memories
    .command('rename')
    .description('name a memory, or take its name away with --clear')
    .argument(...REF)
    .argument('[name]', 'the new name: lower-case letters, digits, ".", "_", "-"')
    .option('--clear', 'remove the name')
    .action(async (ref: string, name: string | undefined, options: { clear?: boolean }, command: Command) => {
      if ((name === undefined) === (options.clear !== true)) throw new CliError('Give either a new name or --clear: strata memories rename <ref> <name>.', EXIT.usage);
      await run(command, io, async ({ memories: api }, globals) => {
        const memory = await api.rename(ref, name ?? null);
        if (globals.json) writeJson(io.stdout, memory);
        else writeLine(io.stdout, memory.name === null ? `${memory.key} has no name now.` : `Named ${memory.key} "${memory.name}".`);
      });
    });

  for (const [verb, description] of [
    ['tag', 'put tags on a memory'],
    ['untag', 'take tags off a memory'],
  ] as const) {
    memories
      .command(verb)
      .description(`${description}; prints its tags after`)
      .argument(...REF)
      .argument('<tag...>', 'tags, like family or family/birthdays')
      .action(async (ref: string, tags: string[], _options: unknown, command: Command) => {
        await run(command, io, async ({ memories: api }, globals) => {
          const memory = await api.get(ref);
          const after = verb === 'tag' ? await api.tag(memory.id, tags) : await api.untag(memory.id, tags);
          if (globals.json) writeJson(io.stdout, after);
          else writeLine(io.stdout, `${memory.key} tags: ${tagsText(after)}`);
        });
      });
  }
}

function registerLinks(memories: Command, io: CliIo): void {
  const typeArgument = (): Argument => new Argument('<type>', 'how <from> bears on <to>').choices(EDGE_TYPES);

  memories
    .command('link')
    .description('link two memories with a typed edge (linking them again with the same type replaces it)')
    .argument('<from>', 'the memory the edge starts at (key, name or id)')
    .addArgument(typeArgument())
    .argument('<to>', 'the memory it points to (key, name or id)')
    .option(...REASON)
    .action(async (from: string, type: EdgeType, to: string, options: { reason?: string }, command: Command) => {
      await run(command, io, async ({ memories: api }, globals) => {
        const edge = await api.link(from, to, type, reasonOf(options));
        const [keyed] = (await keyedEdges(api, [edge])).edges;
        if (globals.json) writeJson(io.stdout, keyed);
        else if (keyed !== undefined) writeLine(io.stdout, `Linked ${edgeLine(keyed)}`);
      });
    });

  memories
    .command('unlink')
    .description('remove the edge of this type between two memories')
    .argument('<from>', 'the memory the edge starts at (key, name or id)')
    .addArgument(typeArgument())
    .argument('<to>', 'the memory it points to (key, name or id)')
    .action(async (from: string, type: EdgeType, to: string, _options: unknown, command: Command) => {
      await run(command, io, async ({ memories: api }, globals) => {
        const [source, target] = await Promise.all([api.get(from), api.get(to)]);
        const removed = await api.unlink(source.id, target.id, type);
        const shown = `${source.key} ${type} ${target.key}`;
        if (!removed) throw new CliError(`No edge ${shown}; see the edges with \`strata memories show ${source.key}\`.`, EXIT.usage);
        if (globals.json) writeJson(io.stdout, { unlinked: { from: source.key, type, to: target.key } });
        else writeLine(io.stdout, `Unlinked ${shown}`);
      });
    });
}

export function registerMemoriesCommand(program: Command, io: CliIo): void {
  const memories = program.command('memories').description("the tenant's long-term memories: versioned, tagged and linked (default: list)");
  registerReading(memories, io);
  registerChanges(memories, io);
  registerLinks(memories, io);
  registerRecall(memories, io);
  registerMaintenance(memories, io);
}

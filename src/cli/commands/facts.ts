import type { Command } from 'commander';
import type { FactEvent } from '../../core/types.js';
import { formatFacts, formatTable } from '../format.js';
import { writeJson, writeLine, type CliIo } from '../io.js';
import { globalOptions, withMemory } from '../open-memory.js';
import { integerOption } from '../parse.js';

function change(event: FactEvent): string {
  if (event.oldText !== null && event.newText !== null) return `${event.oldText} → ${event.newText}`;
  if (event.newText !== null) return `→ ${event.newText}`;
  if (event.oldText !== null) return `${event.oldText} →`;
  return event.key;
}

function eventTable(events: readonly FactEvent[]): string {
  if (events.length === 0) return '(no fact events)';
  return formatTable(
    [{ header: 'turn', align: 'right' }, { header: 'op' }, { header: 'actor' }, { header: 'change' }, { header: 'reason' }],
    events.map((event) => [String(event.turn), event.op, event.actor, change(event), event.reason]),
  );
}

export function registerFactsCommand(program: Command, io: CliIo): void {
  program
    .command('facts')
    .description("show a session's base-truth document, now or as it stood at a past turn")
    .argument('<session>', 'session id')
    .option('--at-turn <n>', 'the document at the end of turn n', integerOption(0))
    .option('--events', 'list the fact events (every change, with its turn, actor and reason) instead')
    .option('--undo <event>', 'revert one add, update, remove or consolidate event with a new event (see --events --json for ids)')
    .action(async (sessionId: string, options: { atTurn?: number; events?: boolean; undo?: string }, command: Command) => {
      const globals = globalOptions(command);
      await withMemory(globals, io, async (memory) => {
        const handle = await memory.sessions.open(sessionId);
        if (options.undo !== undefined) {
          const event = await handle.undoFactEvent(options.undo);
          if (globals.json) writeJson(io.stdout, event);
          else writeLine(io.stdout, `Undid event ${options.undo} with event ${event.id} (${event.op}): ${change(event)}`);
          return;
        }
        if (options.events === true) {
          const all = await handle.factEvents();
          const events = options.atTurn === undefined ? all : all.filter((event) => event.turn <= (options.atTurn ?? 0));
          if (globals.json) writeJson(io.stdout, events);
          else writeLine(io.stdout, eventTable(events));
          return;
        }
        const facts = await handle.facts(options.atTurn === undefined ? {} : { atTurn: options.atTurn });
        if (globals.json) {
          writeJson(io.stdout, facts);
          return;
        }
        if (options.atTurn !== undefined) writeLine(io.stdout, `As of turn ${options.atTurn}:`);
        writeLine(io.stdout, formatFacts(facts));
      });
    });
}

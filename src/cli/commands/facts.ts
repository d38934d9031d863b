import type { Command } from 'commander';
import type { FactEvent } from '../../core/types.js';
import type { SessionHandle } from '../../memory/create-memory.js';
import { CliError, EXIT } from '../exit-codes.js';
import { formatFacts, formatTable } from '../format.js';
import { writeJson, writeLine, type CliIo } from '../io.js';
import { openNamedSession } from '../named-session.js';
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

interface FactsOptions {
  atTurn?: number;
  events?: boolean;
  undo?: string;
  add?: string;
  edit?: string;
  remove?: string;
  text?: string;
  kind?: string;
  reason?: string;
}

type Correction = { op: 'add'; text: string } | { op: 'edit'; fact: string } | { op: 'remove'; fact: string };

/** The one correction the options ask for, or null; two at once, or options that belong to none, are refused. */
function correctionOf(options: FactsOptions): (Correction & { reason?: string; kind?: string; text?: string }) | null {
  const asked: Correction[] = [
    ...(options.add === undefined ? [] : [{ op: 'add' as const, text: options.add }]),
    ...(options.edit === undefined ? [] : [{ op: 'edit' as const, fact: options.edit }]),
    ...(options.remove === undefined ? [] : [{ op: 'remove' as const, fact: options.remove }]),
  ];
  if (asked.length > 1 || (asked.length === 1 && (options.undo !== undefined || options.events === true || options.atTurn !== undefined))) {
    throw new CliError('Give one of --add, --edit, --remove or --undo at a time, without --events or --at-turn.', EXIT.usage);
  }
  const [only] = asked;
  if (only === undefined) {
    if (options.text !== undefined || options.kind !== undefined || options.reason !== undefined) {
      throw new CliError('--text, --kind and --reason go with --add, --edit or --remove.', EXIT.usage);
    }
    return null;
  }
  if (only.op === 'remove' && (options.text !== undefined || options.kind !== undefined)) throw new CliError('--remove takes only --reason.', EXIT.usage);
  if (only.op === 'add' && options.text !== undefined) throw new CliError('--add takes the text itself; --text goes with --edit.', EXIT.usage);
  return {
    ...only,
    ...(options.reason === undefined ? {} : { reason: options.reason }),
    ...(options.kind === undefined ? {} : { kind: options.kind }),
    ...(options.text === undefined ? {} : { text: options.text }),
  };
}

function applyCorrection(handle: SessionHandle, correction: NonNullable<ReturnType<typeof correctionOf>>): Promise<FactEvent> {
  const { op, ...request } = correction;
  // The engine validates the fields (reason, text, kind) and says what is wrong.
  if (op === 'add') return handle.facts.add(request as Parameters<SessionHandle['facts']['add']>[0]);
  if (op === 'edit') return handle.facts.edit(request as Parameters<SessionHandle['facts']['edit']>[0]);
  return handle.facts.remove(request as Parameters<SessionHandle['facts']['remove']>[0]);
}

export function registerFactsCommand(program: Command, io: CliIo): void {
  program
    .command('facts')
    .description("show a session's base-truth document, now or as it stood at a past turn")
    .argument('<session>', 'session id')
    .option('--at-turn <n>', 'the document at the end of turn n', integerOption(0))
    .option('--events', 'list the fact events (every change, with its turn, actor and reason) instead')
    .option('--undo <event>', 'revert one add, update, remove or consolidate event with a new event (see --events --json for ids)')
    .option('--add <text>', 'add a fact line ("key: value") as a correction by you; needs --reason')
    .option('--edit <fact-or-event>', 'change a fact (by its id, or the id of an event that changed it): --text and/or --kind, and --reason')
    .option('--remove <fact-or-event>', 'take a fact out of the document (by its id, or an event id); needs --reason')
    .option('--text <text>', 'the new text of an --edit')
    .option('--kind <kind>', 'fact, constraint, goal, preference or exception (pinned), for --add or --edit')
    .option('--reason <reason>', 'why you make the correction (recorded with the event)')
    .action(async (sessionId: string, options: FactsOptions, command: Command) => {
      const globals = globalOptions(command);
      const correction = correctionOf(options);
      await withMemory(globals, io, async (memory) => {
        const handle = await openNamedSession(memory, sessionId);
        if (correction !== null) {
          const event = await applyCorrection(handle, correction);
          if (globals.json) writeJson(io.stdout, event);
          else writeLine(io.stdout, `Recorded event ${event.id} (${event.op} by ${event.actor}): ${change(event)}`);
          return;
        }
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

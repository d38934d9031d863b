import type { Command } from 'commander';
import type { Session } from '../../core/types.js';
import { CliError, EXIT } from '../exit-codes.js';
import { clip, formatNumber, formatTable, formatTime, plural } from '../format.js';
import { writeJson, writeLine, type CliIo } from '../io.js';
import { openNamedSession } from '../named-session.js';
import { globalOptions, withMemory } from '../open-memory.js';
import { integerOption } from '../parse.js';

function sessionTable(sessions: readonly Session[]): string {
  return formatTable(
    [
      { header: 'id' },
      { header: 'title' },
      { header: 'turns', align: 'right' },
      { header: 'messages', align: 'right' },
      { header: 'tokens', align: 'right' },
      { header: 'updated' },
    ],
    sessions.map((session) => [
      session.id,
      clip(session.title, 40),
      formatNumber(session.turnCount),
      formatNumber(session.messageCount),
      formatNumber(session.tokenCount),
      formatTime(session.updatedAt),
    ]),
  );
}

export function registerSessionsCommand(program: Command, io: CliIo): void {
  const sessions = program.command('sessions').description('list, show, rename and delete sessions (default: list)');

  sessions
    .command('list', { isDefault: true })
    .description('list sessions, most recently updated first')
    .option('--limit <n>', 'how many sessions to list', integerOption(1), 50)
    .action(async (options: { limit: number }, command: Command) => {
      const globals = globalOptions(command);
      await withMemory(globals, io, async (memory) => {
        const list = await memory.sessions.list({ limit: options.limit });
        if (globals.json) {
          writeJson(io.stdout, list);
        } else if (list.length === 0) {
          writeLine(io.stdout, `No sessions in tenant "${memory.tenantId}". Import one with \`strata import <file>\`.`);
        } else {
          writeLine(io.stdout, sessionTable(list));
        }
      });
    });

  sessions
    .command('show')
    .description('show a session: its counters, facts, artifacts and last turns')
    .argument('<id>', 'session id')
    .action(async (id: string, _options: unknown, command: Command) => {
      const globals = globalOptions(command);
      await withMemory(globals, io, async (memory) => {
        const handle = await openNamedSession(memory, id);
        const [session, facts, artifacts, turns] = await Promise.all([handle.info(), handle.facts(), handle.artifacts(), handle.turns()]);
        const recentTurns = turns.slice(-5);
        if (globals.json) {
          writeJson(io.stdout, { session, facts: facts.length, artifacts: artifacts.length, recentTurns });
          return;
        }
        const lines = [
          `Session ${session.id} "${session.title}"`,
          `  created   ${formatTime(session.createdAt)}`,
          `  updated   ${formatTime(session.updatedAt)}`,
          `  turns     ${formatNumber(session.turnCount)}`,
          `  messages  ${formatNumber(session.messageCount)}`,
          `  tokens    ${formatNumber(session.tokenCount)}`,
          `  facts     ${formatNumber(facts.length)}`,
          `  artifacts ${formatNumber(artifacts.length)}`,
        ];
        if (session.instructions !== '') lines.push(`  instructions: ${clip(session.instructions, 100)}`);
        if (recentTurns.length > 0) {
          lines.push('', `Last ${plural(recentTurns.length, 'turn')}:`);
          for (const turn of recentTurns) {
            lines.push(`  ${turn.turn}. user: ${turn.userSummary}`);
            if (turn.assistantSummary !== '') lines.push(`     assistant: ${turn.assistantSummary}`);
          }
        }
        writeLine(io.stdout, lines.join('\n'));
      });
    });

  sessions
    .command('rename')
    .description('give a session a new title')
    .argument('<id>', 'session id')
    .argument('<title>', 'new title')
    .action(async (id: string, title: string, _options: unknown, command: Command) => {
      const globals = globalOptions(command);
      await withMemory(globals, io, async (memory) => {
        const handle = await openNamedSession(memory, id);
        await handle.rename(title);
        const session = await handle.info();
        if (globals.json) writeJson(io.stdout, session);
        else writeLine(io.stdout, `Renamed session ${session.id} to "${session.title}"`);
      });
    });

  sessions
    .command('delete')
    .description('delete a session and everything derived from it')
    .argument('<id>', 'session id')
    .option('--yes', 'confirm the deletion')
    .action(async (id: string, options: { yes?: boolean }, command: Command) => {
      const globals = globalOptions(command);
      await withMemory(globals, io, async (memory) => {
        const handle = await openNamedSession(memory, id);
        if (options.yes !== true) {
          throw new CliError(`Not deleting session ${handle.id}: add --yes to confirm (this cannot be undone).`, EXIT.usage);
        }
        await handle.delete();
        if (globals.json) writeJson(io.stdout, { deleted: handle.id });
        else writeLine(io.stdout, `Deleted session ${handle.id}`);
      });
    });

  sessions
    .command('cleanup')
    .description('delete the sessions not updated for a while, with everything derived from them')
    .requiredOption('--older-than <age>', 'how long without an update: 30d, 12h, 2w, 90m')
    .option('--dry-run', 'only list the sessions that would be deleted')
    .action(async (options: { olderThan: string; dryRun?: boolean }, command: Command) => {
      const globals = globalOptions(command);
      await withMemory(globals, io, async (memory) => {
        const result = await memory.sessions.cleanup({ olderThan: options.olderThan, dryRun: options.dryRun === true });
        if (globals.json) {
          writeJson(io.stdout, { before: result.before, dryRun: result.dryRun, sessions: result.sessions.map((session) => session.id) });
          return;
        }
        const verb = result.dryRun ? 'Would delete' : 'Deleted';
        writeLine(io.stdout, `${verb} ${plural(result.sessions.length, 'session')} not updated since ${formatTime(result.before)}.`);
        if (result.sessions.length > 0) writeLine(io.stdout, sessionTable(result.sessions));
      });
    });
}

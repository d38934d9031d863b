import type { Command } from 'commander';
import type { Memory, SessionHandle } from '../../memory/create-memory.js';
import { parseJsonText, planImport, type ImportPlan } from '../../memory/session-import.js';
import { CliError, EXIT, type ExitCode } from '../exit-codes.js';
import { chatHistory } from '../chat-history.js';
import { plural } from '../format.js';
import { writeJson, writeLine, type CliIo } from '../io.js';
import { openNamedSession } from '../named-session.js';
import { chatLoop } from './chat-loop.js';
import { databasePath, globalOptions, withMemory } from '../open-memory.js';
import { integerOption } from '../parse.js';
import { readInputFile } from '../read-input.js';

interface ChatCommandOptions {
  budget?: number;
  replay?: string;
  title?: string;
}

async function openSession(memory: Memory, sessionId: string | undefined, title: string | undefined): Promise<SessionHandle> {
  if (sessionId !== undefined) return openNamedSession(memory, sessionId);
  return memory.sessions.create(title === undefined ? {} : { title });
}

type ReplayPlan = Extract<ImportPlan, { kind: 'messages' }>;

/** Read and check a recorded conversation, message sizes included, so a bad file stores nothing. */
function readReplay(file: string, io: CliIo, maxBytes: number): ReplayPlan {
  const plan = planImport(parseJsonText(readInputFile(file, io.cwd), file), { now: new Date().toISOString(), maxBytes, source: file });
  if (plan.kind !== 'messages') {
    throw new CliError(`${file} is a Strata export; replay takes recorded messages ([{ "role", "content" }]). Use \`strata import\` for exports.`, EXIT.usage);
  }
  return plan;
}

/** Replay a recorded conversation through the configured memory manager, turn by turn. */
async function replay(session: SessionHandle, plan: ReplayPlan, io: CliIo, json: boolean): Promise<ExitCode> {
  if (plan.instructions !== '') await session.setInstructions(plan.instructions);
  const counts = new Map<string, number>();
  for (const [index, turn] of plan.turns.entries()) {
    const user = turn.find((message) => message.role === 'user');
    const assistant = turn.find((message) => message.role === 'assistant');
    const result = await session.record({
      ...(user === undefined ? {} : { user: { content: user.content, speaker: user.speaker } }),
      ...(assistant === undefined ? {} : { assistant: { content: assistant.content, speaker: assistant.speaker } }),
    });
    counts.set(result.status, (counts.get(result.status) ?? 0) + 1);
    if (!json) {
      const changes = result.factEvents.filter((event) => event.op !== 'reject' && event.op !== 'warning').length;
      const problem = result.problem === null ? '' : ` — ${result.problem}`;
      writeLine(io.stdout, `turn ${result.turn} (${index + 1}/${plan.turns.length}): ${result.status}, ${plural(changes, 'fact change')}${problem}`);
    }
  }
  const facts = (await session.facts()).length;
  const statuses = Object.fromEntries(counts);
  if (json) writeJson(io.stdout, { sessionId: session.id, turns: plan.turns.length, statuses, facts });
  else writeLine(io.stdout, `Replayed ${plural(plan.turns.length, 'turn')} into session ${session.id}: ${[...counts].map(([status, count]) => `${count} ${status}`).join(', ')}; ${plural(facts, 'fact')} in the base truth.`);
  return EXIT.ok;
}

export function registerChatCommand(program: Command, io: CliIo): void {
  program
    .command('chat')
    .description('chat with memory against the configured chat model (STRATA_CHAT_MODEL …), or --replay a recorded conversation through the memory manager')
    .argument('[session]', 'session to continue (default: a new session)')
    .option('--budget <tokens>', 'context budget per turn (default: STRATA_CONTEXT_BUDGET, else 30000)', integerOption(1))
    .option('--replay <file>', 'run recorded user and assistant messages through the configured memory manager (STRATA_MEMORY_MODEL, else local)')
    .option('--title <title>', 'title of a new session')
    .action(async (sessionId: string | undefined, options: ChatCommandOptions, command: Command) => {
      const globals = globalOptions(command);
      const code = await withMemory(globals, io, async (memory) => {
        // Check the model before anything is created, so a misconfigured run leaves no empty session behind.
        // The same for a replay file: it is read and checked first.
        const model = options.replay === undefined ? memory.chatModelName() : null;
        const plan = options.replay === undefined ? null : readReplay(options.replay, io, memory.settings.maxMessageBytes);
        if (model !== null && !globals.json) writeLine(io.stderr, `Chat model: ${model}`);
        const session = await openSession(memory, sessionId, options.title);
        if (plan !== null) return replay(session, plan, io, globals.json);
        const history = chatHistory(databasePath(globals, io), session.id, (problem) => writeLine(io.stderr, `strata: warning: ${problem}`));
        return chatLoop(session, io, { json: globals.json, budget: options.budget ?? memory.settings.contextBudget, created: sessionId === undefined, history });
      });
      if (code !== EXIT.ok) throw new CliError('No turn could be stored: every call to the chat model failed.', code);
    });
}

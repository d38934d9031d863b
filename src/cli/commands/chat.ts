import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import type { Memory, SessionHandle } from '../../memory/create-memory.js';
import { parseJsonText, planImport, type ImportPlan } from '../../memory/session-import.js';
import { CliError, EXIT, type ExitCode } from '../exit-codes.js';
import { formatNumber, plural } from '../format.js';
import { writeJson, writeLine, type CliIo } from '../io.js';
import { openNamedSession } from '../named-session.js';
import { isChatCommand, runChatCommand } from './chat-commands.js';
import { globalOptions, withMemory } from '../open-memory.js';
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

/** `[turn 3 · context 1,204 / 30,000 tokens · memory fresh]`. */
function turnLine(result: { turn: number; contextTokens: number; budget: number; staleMemory: boolean }): string {
  return `[turn ${result.turn} · context ${formatNumber(result.contextTokens)} / ${formatNumber(result.budget)} tokens · memory ${result.staleMemory ? 'stale (the previous turn was still being remembered)' : 'fresh'}]`;
}

/** The interactive loop: one turn per line of input until end of input or /exit. */
async function interactive(session: SessionHandle, io: CliIo, options: { budget: number; json: boolean; created: boolean }): Promise<ExitCode> {
  const input = io.stdin;
  if (input === undefined) throw new CliError('strata chat needs an input to read messages from.', EXIT.usage);
  const lines = createInterface({ input, crlfDelay: Infinity, terminal: false });
  const prompt = (): void => {
    if (io.stdout.isTTY === true && !options.json) io.stdout.write('you> ');
  };
  let turns = 0;
  let failures = 0;
  let remembering: Promise<void> = Promise.resolve();
  if (!options.json) writeLine(io.stderr, `Chatting in session ${session.id}; /help lists the commands, /exit or Ctrl-D leaves.`);
  prompt();
  for await (const line of lines) {
    const text = line.trim();
    if (text === '') {
      prompt();
      continue;
    }
    if (isChatCommand(line)) {
      // What the commands show includes the last turn's memory once it has landed.
      await remembering;
      const outcome = await runChatCommand(line, session, options.budget).catch((error: unknown) => ({ text: `strata: ${(error as Error).message}`, quit: false }));
      if (outcome.quit) break;
      writeLine(options.json ? io.stderr : io.stdout, outcome.text);
      prompt();
      continue;
    }
    try {
      const stream = session.chat(text, { stream: true, budget: options.budget });
      if (!options.json) io.stdout.write('assistant> ');
      for await (const piece of stream) if (!options.json) io.stdout.write(piece);
      const result = await stream.result;
      remembering = result.memory.then(
        () => undefined,
        () => undefined,
      );
      turns += 1;
      if (options.json) {
        writeJson(io.stdout, { sessionId: session.id, turn: result.turn, reply: result.reply, contextTokens: result.contextTokens, budget: result.budget, staleMemory: result.staleMemory });
      } else {
        writeLine(io.stdout);
        writeLine(io.stdout, turnLine(result));
      }
    } catch (error) {
      // One failed call does not end the conversation: nothing was stored for it, the next line is a new try.
      failures += 1;
      if (!options.json) writeLine(io.stdout);
      writeLine(io.stderr, `strata: ${(error as Error).message}`);
    }
    prompt();
  }
  lines.close();
  const { turnCount } = await session.info();
  // A session this run made and nothing was stored in is not left behind empty.
  if (options.created && turnCount === 0) {
    await session.delete();
    if (!options.json) writeLine(io.stderr, 'No turn was stored; the new session was not kept.');
  } else if (!options.json) {
    writeLine(io.stderr, `${plural(turns, 'turn')} stored this time; session ${session.id} holds ${plural(turnCount, 'turn')}.`);
  }
  return turns === 0 && failures > 0 ? EXIT.failure : EXIT.ok;
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
        return interactive(session, io, { json: globals.json, budget: options.budget ?? memory.settings.contextBudget, created: sessionId === undefined });
      });
      if (code !== EXIT.ok) throw new CliError('No turn could be stored: every call to the chat model failed.', code);
    });
}

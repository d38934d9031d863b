/**
 * The interactive loop of `strata chat`: one turn per line until Ctrl-D, /quit or /exit. On a terminal
 * the line is edited in place (arrows, Home/End, ↑/↓ through this session's earlier lines, kept across
 * runs), Ctrl-C stops a reply while it streams (nothing is stored for it; ↑ brings the message back) and
 * at the prompt leaves. From a pipe, lines are read as they come.
 */
import { createInterface, type Interface } from 'node:readline';
import type { SessionHandle } from '../../memory/memory-api.js';
import type { ChatHistory } from '../chat-history.js';
import { CliError, EXIT, type ExitCode } from '../exit-codes.js';
import { formatNumber, plural } from '../format.js';
import { writeJson, writeLine, type CliIo } from '../io.js';
import { isChatCommand, runChatCommand } from './chat-commands.js';

export interface ChatLoopOptions {
  budget: number;
  json: boolean;
  /** The session was made by this run (deleted again when no turn is stored). */
  created: boolean;
  /** Where a terminal's lines are kept between runs (null: only for this run). */
  history: ChatHistory | null;
}

const PROMPT = 'you> ';

/** `[turn 3 · context 1,204 / 30,000 tokens · memory fresh]`. */
function turnLine(result: { turn: number; contextTokens: number; budget: number; staleMemory: boolean }): string {
  return `[turn ${result.turn} · context ${formatNumber(result.contextTokens)} / ${formatNumber(result.budget)} tokens · memory ${result.staleMemory ? 'stale (the previous turn was still being remembered)' : 'fresh'}]`;
}

/** Whether both ends are a terminal (and the output is for a person): then lines are edited in place. */
function isTerminal(io: CliIo, json: boolean): boolean {
  return !json && io.stdout.isTTY === true && (io.stdin as { isTTY?: boolean } | undefined)?.isTTY === true;
}

function openInput(io: CliIo, options: ChatLoopOptions, terminal: boolean): Interface {
  const input = io.stdin;
  if (input === undefined) throw new CliError('strata chat needs an input to read messages from.', EXIT.usage);
  if (!terminal) return createInterface({ input, crlfDelay: Infinity, terminal: false });
  return createInterface({
    input,
    // (A terminal's output is the process's own stream.)
    output: io.stdout as unknown as NodeJS.WritableStream,
    terminal: true,
    prompt: PROMPT,
    history: options.history?.load() ?? [],
    historySize: 1000,
    removeHistoryDuplicates: true,
    crlfDelay: Infinity,
  });
}

/** Run the loop; the exit code says whether any turn was stored when calls failed. */
export async function chatLoop(session: SessionHandle, io: CliIo, options: ChatLoopOptions): Promise<ExitCode> {
  const terminal = isTerminal(io, options.json);
  const lines = openInput(io, options, terminal);
  const out = options.json ? io.stderr : io.stdout;
  /** The reply streaming now, stopped by Ctrl-C. */
  let streaming: AbortController | null = null;
  /** Ctrl-C or Ctrl-D ended the input: nothing is prompted for again (a prompt would wait on the terminal). */
  let ended = false;
  lines.on('close', () => (ended = true));
  lines.on('SIGINT', () => {
    if (streaming !== null) streaming.abort();
    else {
      // At the prompt (or while a command runs), Ctrl-C leaves as Ctrl-D does.
      io.stdout.write('\n');
      lines.close();
    }
  });
  const prompt = (): void => {
    if (ended) return;
    if (terminal) lines.prompt();
    else if (io.stdout.isTTY === true && !options.json) io.stdout.write(PROMPT);
  };
  let turns = 0;
  let failures = 0;
  let remembering: Promise<void> = Promise.resolve();
  if (!options.json) writeLine(io.stderr, `Chatting in session ${session.id}; /help lists the commands, /exit or Ctrl-D leaves${terminal ? ', Ctrl-C stops a reply' : ''}.`);
  prompt();
  for await (const line of lines) {
    const text = line.trim();
    if (text === '') {
      prompt();
      continue;
    }
    if (terminal) options.history?.add(line);
    if (isChatCommand(line)) {
      // What the commands show includes the last turn's memory once it has landed.
      await remembering;
      const outcome = await runChatCommand(line, session, options.budget).catch((error: unknown) => ({ text: `strata: ${(error as Error).message}`, quit: false }));
      if (outcome.quit) break;
      writeLine(out, outcome.text);
      prompt();
      continue;
    }
    const controller = new AbortController();
    streaming = controller;
    try {
      const stream = session.chat(text, { stream: true, budget: options.budget, signal: controller.signal });
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
      if (!options.json) writeLine(io.stdout);
      if (controller.signal.aborted) {
        writeLine(io.stderr, `Reply stopped; nothing was stored for this message${terminal ? ' (↑ brings it back)' : ''}.`);
      } else {
        // One failed call does not end the conversation: nothing was stored for it, the next line is a new try.
        failures += 1;
        writeLine(io.stderr, `strata: ${(error as Error).message}`);
      }
    } finally {
      streaming = null;
    }
    prompt();
  }
  lines.close();
  return endChat(session, io, options, { turns, failures });
}

/** Say what this run stored; a session it made and stored nothing in is not left behind. */
async function endChat(session: SessionHandle, io: CliIo, options: ChatLoopOptions, counts: { turns: number; failures: number }): Promise<ExitCode> {
  const { turnCount } = await session.info();
  if (options.created && turnCount === 0) {
    await session.delete();
    if (!options.json) writeLine(io.stderr, 'No turn was stored; the new session was not kept.');
  } else if (!options.json) {
    writeLine(io.stderr, `${plural(counts.turns, 'turn')} stored this time; session ${session.id} holds ${plural(turnCount, 'turn')}.`);
  }
  return counts.turns === 0 && counts.failures > 0 ? EXIT.failure : EXIT.ok;
}

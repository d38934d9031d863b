/**
 * The commands `strata chat` answers itself, never sending them to the model: a line that starts with
 * "/" and a word. `/help` lists them; an unknown one says so.
 */
import type { SessionHandle } from '../../memory/memory-api.js';
import { formatChatMessages, formatFacts, formatNumber, plural } from '../format.js';
import { contextFooter } from './context.js';

/** What a command printed, and whether the chat should end. */
export interface CommandOutcome {
  text: string;
  quit: boolean;
}

const HELP = [
  'Commands (not sent to the model):',
  '  /help              this list',
  '  /facts             what the memory holds now',
  '  /context [budget]  the package the next turn would send, and its tokens',
  '  /export md|json    the whole session',
  '  /session           this session: id, title, turns',
  '  /quit, /exit       leave (so does Ctrl-D)',
].join('\n');

/** Whether a line is a command for the chat itself ("/facts"), rather than a message ("/etc/hosts is broken" is a message). */
export function isChatCommand(line: string): boolean {
  return /^\/[a-z]+(?:\s|$)/u.test(line);
}

/** Run one command line against the session; `budget` is the chat's own. */
export async function runChatCommand(line: string, session: SessionHandle, budget: number): Promise<CommandOutcome> {
  const [name = '', ...rest] = line.slice(1).trim().split(/\s+/u);
  const argument = rest.join(' ');
  const done = (text: string): CommandOutcome => ({ text, quit: false });
  switch (name) {
    case 'help':
      return done(HELP);
    case 'quit':
    case 'exit':
      return { text: '', quit: true };
    case 'facts': {
      const facts = await session.facts();
      return done(facts.length === 0 ? 'The memory holds no facts yet.' : `${plural(facts.length, 'fact')}:\n${formatFacts(facts)}`);
    }
    case 'context': {
      const asked = argument === '' ? budget : Number(argument);
      if (!Number.isInteger(asked) || asked < 1) return done(`/context takes a budget in tokens, a whole number ≥ 1 (got "${argument}").`);
      const pkg = await session.context({ budget: asked });
      const messages = pkg.render();
      return done(`${messages.length === 0 ? '(the package is empty: nothing fits the budget)' : formatChatMessages(messages)}\n\n${contextFooter(pkg)}`);
    }
    case 'export': {
      if (argument !== 'md' && argument !== 'json') return done('/export takes md or json.');
      return done(await session.export({ format: argument === 'md' ? 'markdown' : 'json' }));
    }
    case 'session': {
      const info = await session.info();
      return done(`Session ${info.id}: "${info.title}", ${plural(info.turnCount, 'turn')}, ${formatNumber(info.tokenCount)} tokens of text.`);
    }
    default:
      return done(`Unknown command /${name}; /help lists them. (To send a message starting with "/", put a space before it.)`);
  }
}

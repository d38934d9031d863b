/**
 * A session named on the command line by its id or by the start of it, as long as only one id starts
 * so: ids are long, and a few characters are easier to type. An exact id always wins.
 */
import { isStrataError } from '../core/errors.js';
import type { Session } from '../core/types.js';
import type { SessionHandle, TenantMemory } from '../memory/memory-api.js';
import { CliError, EXIT } from './exit-codes.js';

const PAGE = 500;

/** Ids shown when a start names several sessions. */
const SHOWN_MATCHES = 10;

async function startingWith(memory: TenantMemory, start: string): Promise<Session[]> {
  const found: Session[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await memory.sessions.list({ limit: PAGE, offset });
    found.push(...page.filter((session) => session.id.startsWith(start)));
    if (page.length < PAGE) return found;
  }
}

/** Open the session `given` names: its id, else the one id that starts with it. */
export async function openNamedSession(memory: TenantMemory, given: string): Promise<SessionHandle> {
  try {
    return await memory.sessions.open(given);
  } catch (error) {
    if (!isStrataError(error, 'SESSION_NOT_FOUND') || given === '') throw error;
    const matches = await startingWith(memory, given);
    const only = matches.length === 1 ? matches[0] : undefined;
    if (only !== undefined) return memory.sessions.open(only.id);
    if (matches.length === 0) throw error;
    const shown = matches.slice(0, SHOWN_MATCHES).map((session) => `${session.id} (${session.title})`);
    const more = matches.length > SHOWN_MATCHES ? `, and ${matches.length - SHOWN_MATCHES} more` : '';
    throw new CliError(`"${given}" starts ${matches.length} session ids: ${shown.join(', ')}${more}. Give more of the id.`, EXIT.usage);
  }
}

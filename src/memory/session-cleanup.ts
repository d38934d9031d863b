/**
 * `sessions.cleanup()`: delete the sessions of a tenant not updated since a time, with everything
 * derived from them; with `dryRun`, only list them.
 */
import { parseAge } from '../core/age.js';
import { describeValue } from '../core/describe-value.js';
import { StrataError } from '../core/errors.js';
import type { Session } from '../core/types.js';
import { isOptions } from './session-input.js';

export interface CleanupOptions {
  /** Delete sessions last updated longer ago than this: an age such as `30d`, `12h`, `2w`. */
  olderThan: string;
  /** Only list what would be deleted (default false). */
  dryRun?: boolean;
}

export interface CleanupResult {
  /** Updated before this time (ISO-8601). */
  before: string;
  dryRun: boolean;
  /** The sessions deleted (or, with dryRun, that would be), least recently updated first. */
  sessions: Session[];
}

const PAGE = 500;

/** What cleanup needs of a tenant. */
export interface CleanupAccess {
  now: () => string;
  list: (page: { limit: number; offset: number }) => Promise<Session[]>;
  /** Delete the session if it was still last updated before `before` (checked and deleted as one step); whether it was. */
  deleteIfOlder: (sessionId: string, before: string) => Promise<boolean>;
}

/** Whether a session was last updated before a time (compared as instants: stored times may carry offsets). */
export function updatedBefore(session: Pick<Session, 'updatedAt'>, before: string): boolean {
  return Date.parse(session.updatedAt) < Date.parse(before);
}

export async function cleanupSessions(options: unknown, access: CleanupAccess): Promise<CleanupResult> {
  if (!isOptions(options)) throw new StrataError('INVALID_INPUT', `cleanup() takes { olderThan, dryRun? } (got ${describeValue(options)}).`);
  const age = parseAge(options.olderThan);
  if (options.dryRun !== undefined && typeof options.dryRun !== 'boolean') throw new StrataError('INVALID_INPUT', `dryRun is true or false (got ${describeValue(options.dryRun)}).`);
  const dryRun = options.dryRun === true;
  const before = new Date(Date.parse(access.now()) - age).toISOString();
  // Every session is listed once (writes meanwhile can move one between pages), least recently updated first.
  const old = new Map<string, Session>();
  for (let offset = 0; ; offset += PAGE) {
    const page = await access.list({ limit: PAGE, offset });
    for (const session of page) if (updatedBefore(session, before)) old.set(session.id, session);
    if (page.length < PAGE) break;
  }
  const listed = [...old.values()].sort((a, b) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt));
  if (dryRun) return { before, dryRun, sessions: listed };
  // A session written to since it was listed is kept: the age is checked again as it is deleted.
  const deleted: Session[] = [];
  for (const session of listed) if (await access.deleteIfOlder(session.id, before)) deleted.push(session);
  return { before, dryRun, sessions: deleted };
}

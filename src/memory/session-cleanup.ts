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

export async function cleanupSessions(
  options: unknown,
  access: { now: () => string; list: (page: { limit: number; offset: number }) => Promise<Session[]>; open: (sessionId: string) => Promise<{ delete(): Promise<void> }> },
): Promise<CleanupResult> {
  if (!isOptions(options)) throw new StrataError('INVALID_INPUT', `cleanup() takes { olderThan, dryRun? } (got ${describeValue(options)}).`);
  const age = parseAge(options.olderThan);
  if (options.dryRun !== undefined && typeof options.dryRun !== 'boolean') throw new StrataError('INVALID_INPUT', `dryRun is true or false (got ${describeValue(options.dryRun)}).`);
  const dryRun = options.dryRun === true;
  const before = new Date(Date.parse(access.now()) - age).toISOString();
  // Sessions come most recently updated first: the old ones are the tail.
  const old: Session[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await access.list({ limit: PAGE, offset });
    old.push(...page.filter((session) => session.updatedAt < before));
    if (page.length < PAGE) break;
  }
  old.reverse();
  if (!dryRun) for (const session of old) await (await access.open(session.id)).delete().catch(ignoreGone);
  return { before, dryRun, sessions: old };
}

/** A session deleted meanwhile (by another request) is gone, as asked. */
function ignoreGone(error: unknown): void {
  if (!(error instanceof StrataError && error.code === 'SESSION_NOT_FOUND')) throw error;
}

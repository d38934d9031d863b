import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemory, type Memory, type MemoryOptions } from '../../src/memory/create-memory.js';
import { recordingLogger, type LogRecord } from './recording-logger.js';

/** A clock that advances one second per reading, from a fixed start. */
export function steppingClock(start = '2026-03-01T09:00:00.000Z'): () => Date {
  let time = Date.parse(start);
  return () => {
    time += 1000;
    return new Date(time);
  };
}

/** Sequential, readable ids. */
export function sequentialIds(prefix = 'id'): () => string {
  let next = 0;
  return () => `${prefix}-${String(++next).padStart(5, '0')}`;
}

/** A temporary folder removed by the returned cleanup. */
export function temporaryFolder(): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), 'strata-test-'));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * A memory on a fresh temporary database with deterministic time and ids. Its log records are kept in
 * `logs` (unless `options.logger` is given), so expected warnings can be asserted instead of printed.
 */
export function testMemory(options: MemoryOptions = {}): { memory: Memory; path: string; logs: LogRecord[]; cleanup: () => Promise<void> } {
  const folder = temporaryFolder();
  const path = join(folder.path, 'strata.db');
  const { logger, records } = recordingLogger();
  const memory = createMemory({ path, env: {}, clock: steppingClock(), newId: sequentialIds(), durability: 'normal', logger, ...options });
  return {
    memory,
    path,
    logs: records,
    cleanup: async () => {
      await memory.close();
      folder.cleanup();
    },
  };
}

/** A short task conversation with a constraint, a correction and an exception. */
export const PLANNING_TURNS: ReadonlyArray<{ user: string; assistant: string }> = [
  {
    user: 'We are moving our support app to a new host. The budget is $40,000 for the whole project and the deadline is March 15.',
    assistant: 'Understood: a $40,000 budget and a March 15 deadline. I will plan the migration around both.',
  },
  {
    user: 'One hard rule: we must never store full card numbers anywhere in the new system.',
    assistant: 'Noted. Card numbers will never be stored; we only keep the last four digits from the payment provider.',
  },
  { user: 'Thanks! How was your weekend?', assistant: 'Quiet, thanks for asking. Shall we continue with the database plan?' },
  {
    user: 'Yes. We want PostgreSQL 16 on the new host, with nightly backups kept for 30 days.',
    assistant: 'PostgreSQL 16 with nightly backups retained for 30 days. I will include restore drills every month.',
  },
  {
    user: 'Actually, the budget changed to $45,000 after the finance review.',
    assistant: 'Updated: the budget is now $45,000. That leaves room for a staging environment.',
  },
];

/**
 * A child process for the session-lock test: takes the lock of tenant `acme`, session `s1` on the
 * PostgreSQL at argv[2], prints "held" and waits, still holding it, until it is killed.
 */
import { createPostgresSessionLock } from '../../../src/store/postgres/session-lock.js';

const lock = createPostgresSessionLock({ connectionString: process.argv[2] ?? '' });
await lock.run({ tenant: 'acme', sessionId: 's1' }, async () => {
  process.stdout.write('held\n');
  await new Promise(() => undefined);
});

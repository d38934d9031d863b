/**
 * The PostgreSQL store passes the same contract suites as SQLite, each test in a schema of its own
 * (dropped afterwards), against the server of DATABASE_URL.
 */
import { randomBytes } from 'node:crypto';
import { describe } from 'vitest';
import { createPostgresStore } from '../../../src/store/postgres/postgres-store.js';
import { describeApiKeyContract } from '../../contract/api-key-contract.js';
import { describeStoreContract, type OpenStore } from '../../contract/store-contract.js';
import { describeTierRaiseContract } from '../../contract/tier-raise-contract.js';
import { describeTurnChangesContract } from '../../contract/turn-changes-contract.js';
import { describeLongTermContract } from '../../contract/long-term-contract.js';
import { describeVectorContract } from '../../contract/vector-contract.js';
import { DATABASE_URL, POSTGRES_SKIP_REASON, dropSchemas } from '../../support/postgres.js';

/** A store in a fresh schema; its cleanup closes it and drops the schema. */
export const openPostgresStore: OpenStore = async () => {
  const connectionString = DATABASE_URL ?? '';
  const schema = `strata_test_${randomBytes(5).toString('hex')}`;
  const store = createPostgresStore({ connectionString, schema, pool: { max: 4 } });
  return {
    store,
    cleanup: async () => {
      await store.close();
      await dropSchemas(schema);
    },
  };
};

describe.skipIf(POSTGRES_SKIP_REASON !== null)(`PostgreSQL store${POSTGRES_SKIP_REASON === null ? '' : ` (skipped: ${POSTGRES_SKIP_REASON})`}`, () => {
  describeStoreContract('postgres', openPostgresStore);
  describeApiKeyContract('postgres', openPostgresStore);
  describeVectorContract('postgres', openPostgresStore);
  describeTierRaiseContract('postgres', openPostgresStore);
  describeTurnChangesContract('postgres', openPostgresStore);
  describeLongTermContract('postgres', openPostgresStore);
});

/** `strata` itself, run as a child process by the multi-server test (bundled, see test/support/bundle.ts). */
import { main } from '../../../src/cli/main.js';

process.exitCode = await main(process.argv);

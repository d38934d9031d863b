// The CLI as a process of its own, bundled by chat-terminal.test.ts to run in a pseudo-terminal.
import { main } from '../../src/cli/main.js';

process.exitCode = await main(process.argv);

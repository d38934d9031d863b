import type { Command } from 'commander';
import { join } from 'node:path';
import { DEFAULT_BODY_LIMIT } from '../../server/create-app.js';
import { startServer } from '../../server/start-server.js';
import { writeJson, writeLine, type CliIo } from '../io.js';
import { globalOptions, withMemory } from '../open-memory.js';
import { integerOption } from '../parse.js';
import { packageInfo } from '../package-root.js';

/** Resolves when the process is asked to stop: `io.stop` when given (tests), else SIGINT or SIGTERM. */
function stopRequested(io: CliIo): Promise<string> {
  const { stop } = io;
  if (stop !== undefined) return new Promise((resolve) => (stop.aborted ? resolve('stop') : stop.addEventListener('abort', () => resolve('stop'), { once: true })));
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

export function registerServeCommand(program: Command, io: CliIo): void {
  program
    .command('serve')
    .description('serve the web app at /, the REST API, the OpenAI-compatible proxy and MCP (and /healthz, /metrics, /openapi.json) over HTTP until SIGINT or SIGTERM')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free one)', integerOption(0), 8787)
    .option('--no-auth', 'serve the default tenant without API keys (loopback hosts only)')
    .option('--body-limit <bytes>', 'largest request body accepted', integerOption(1), DEFAULT_BODY_LIMIT)
    .action(async (options: { host: string; port: number; auth: boolean; bodyLimit: number }, command: Command) => {
      const globals = globalOptions(command);
      await withMemory(globals, io, async (memory) => {
        const server = await startServer({
          memory,
          host: options.host,
          port: options.port,
          auth: options.auth ? 'keys' : 'none',
          bodyLimit: options.bodyLimit,
          version: packageInfo().version,
          webRoot: join(packageInfo().root, 'dist', 'web'),
          log: (entry) => writeJson(io.stderr, { level: 'info', msg: 'request', ...entry }),
          onUnexpected: (error, requestId) => writeJson(io.stderr, { level: 'error', msg: 'request failed', requestId, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
        });
        writeLine(io.stdout, `listening on ${server.url}`);
        const signal = await stopRequested(io);
        writeJson(io.stderr, { level: 'info', msg: 'stopping', signal });
        // (It closes the memory too; withMemory's close after it is a no-op.)
        await server.close();
      });
    });
}

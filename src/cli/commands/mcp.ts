import type { Command } from 'commander';
import { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { strataMcpServer } from '../../server/mcp/strata-tools.js';
import { CliError } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { globalOptions, withMemory } from '../open-memory.js';
import { packageInfo } from '../package-root.js';

export function registerMcpCommand(program: Command, io: CliIo): void {
  program
    .command('mcp')
    .description("serve Strata's tools over MCP on stdin and stdout, for the tenant of --tenant (for an MCP client's configuration)")
    .action(async (_options: unknown, command: Command) => {
      const globals = globalOptions(command);
      const input = io.stdin;
      if (input === undefined) throw new CliError('strata mcp reads MCP messages from standard input, and there is none.');
      await withMemory(globals, io, async (memory) => {
        const server = strataMcpServer(memory, packageInfo().version);
        const output = new Writable({
          write(chunk: Buffer | string, _encoding, done) {
            io.stdout.write(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
            done();
          },
        });
        const stdin = input instanceof Readable ? input : Readable.from(input);
        const ended = new Promise<void>((resolve) => {
          stdin.once('end', resolve);
          stdin.once('close', resolve);
        });
        await server.connect(new StdioServerTransport(stdin, output));
        // The client ends the conversation by closing our standard input.
        await ended;
        await server.close();
      });
    });
}

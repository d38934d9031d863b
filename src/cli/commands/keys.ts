import type { Command } from 'commander';
import type { ApiKeyInfo } from '../../memory/api-keys.js';
import { CliError } from '../exit-codes.js';
import { formatTable, formatTime } from '../format.js';
import { writeJson, writeLine, type CliIo } from '../io.js';
import { globalOptions, withMemory } from '../open-memory.js';

function keyTable(keys: readonly ApiKeyInfo[]): string {
  return formatTable(
    [{ header: 'id' }, { header: 'tenant' }, { header: 'name' }, { header: 'created' }, { header: 'revoked' }],
    keys.map((key) => [key.id, key.tenant, key.name, formatTime(key.createdAt), key.revokedAt === null ? '' : formatTime(key.revokedAt)]),
  );
}

export function registerKeysCommand(program: Command, io: CliIo): void {
  const keys = program.command('keys').description('API keys for `strata serve`: each serves one tenant (default: list)');

  keys
    .command('create')
    .description('create a key for the tenant given with --tenant; it is printed once, only its hash is stored')
    .option('--name <name>', 'a label for people, such as "web app"', '')
    .action(async (options: { name: string }, command: Command) => {
      const globals = globalOptions(command);
      if (globals.tenant === undefined) throw new CliError('Name the tenant the key serves: strata keys create --tenant <id>.');
      await withMemory(globals, io, async (memory) => {
        const created = await memory.keys.create({ tenant: globals.tenant ?? '', name: options.name });
        if (globals.json) {
          writeJson(io.stdout, { key: created.key, tenant: created.tenant, id: created.id, name: created.name, createdAt: created.createdAt });
          return;
        }
        writeLine(io.stdout, created.key);
        writeLine(io.stderr, `Key ${created.id} serves tenant "${created.tenant}". Keep it now: it cannot be shown again. Send it as "Authorization: Bearer <key>".`);
      });
    });

  keys
    .command('list', { isDefault: true })
    .description('list keys (of the tenant given with --tenant, else all), revoked ones included')
    .action(async (_options: unknown, command: Command) => {
      const globals = globalOptions(command);
      await withMemory(globals, io, async (memory) => {
        const list = await memory.keys.list(globals.tenant === undefined ? {} : { tenant: globals.tenant });
        if (globals.json) writeJson(io.stdout, list);
        else writeLine(io.stdout, list.length === 0 ? 'No API keys. Create one with `strata keys create --tenant <id>`.' : keyTable(list));
      });
    });

  keys
    .command('revoke')
    .description('revoke a key: requests with it are refused from now on')
    .argument('<id>', 'key id (from `strata keys list`)')
    .action(async (id: string, _options: unknown, command: Command) => {
      const globals = globalOptions(command);
      await withMemory(globals, io, async (memory) => {
        const revoked = await memory.keys.revoke(id);
        if (globals.json) writeJson(io.stdout, revoked);
        else writeLine(io.stdout, `Revoked key ${revoked.id} of tenant "${revoked.tenant}".`);
      });
    });
}

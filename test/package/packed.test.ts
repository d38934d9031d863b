/**
 * The package as npm publishes it: `npm pack`, unpacked into a project's node_modules beside the
 * dependencies this checkout installed, then used as the README says from an ES module project and from
 * a CommonJS one, library and CLI. (A full `npm install` of the tarball also builds better-sqlite3 from
 * source, minutes on a fresh machine; the dependencies are not what this test is about.)
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
let folder = '';
let files: string[] = [];

/** What the README's library example does, without a chat model. */
const EXAMPLE = `
  const memory = createMemory();
  const session = await memory.sessions.create({ title: 'Migration', instructions: 'Be concise.' });
  await session.record({ user: 'Budget is $40,000; we must never store card numbers.', assistant: 'Noted.' });
  await session.record({ user: { content: 'Actually the budget changed to $45,000.', speaker: 'Maya' }, assistant: 'Updated.' });
  const pkg = await session.context({ budget: 2000, query: 'card data rules' });
  const facts = await session.facts();
  console.log(JSON.stringify({ tokens: pkg.tokens, messages: pkg.render().length, facts: facts.map((fact) => fact.text) }));
  await memory.close();
`;

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, STRATA_LOG_LEVEL: 'silent' }, timeout: 120_000 });
}

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'strata-packed-'));
  const packed = JSON.parse(run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', folder], root)) as Array<{ filename: string; files: Array<{ path: string }> }>;
  files = packed[0]?.files.map((file) => file.path) ?? [];
  const modules = join(folder, 'app', 'node_modules');
  mkdirSync(join(modules, 'strata-memory'), { recursive: true });
  run('tar', ['xzf', join(folder, packed[0]?.filename ?? ''), '--strip-components=1', '-C', join(modules, 'strata-memory')], folder);
  for (const name of readdirSync(join(root, 'node_modules'))) {
    if (name !== 'strata-memory' && name !== '.bin' && !name.startsWith('.')) symlinkSync(join(root, 'node_modules', name), join(modules, name));
  }
  mkdirSync(join(modules, '.bin'));
  symlinkSync('../strata-memory/bin/strata.js', join(modules, '.bin', 'strata'));
  for (const [kind, type] of [['esm', 'module'], ['cjs', 'commonjs']] as const) {
    mkdirSync(join(folder, 'app', kind));
    writeFileSync(join(folder, 'app', kind, 'package.json'), JSON.stringify({ name: `${kind}-app`, private: true, type }));
  }
  writeFileSync(join(folder, 'app', 'esm', 'index.js'), `import { createMemory } from 'strata-memory';\n${EXAMPLE}`);
  writeFileSync(join(folder, 'app', 'cjs', 'index.js'), `const { createMemory } = require('strata-memory');\nasync function main() {${EXAMPLE}}\nmain();`);
}, 180_000);

afterAll(() => {
  if (folder !== '') rmSync(folder, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('holds the licence and the built code, and no source maps pointing at sources it does not ship', () => {
    expect(files).toContain('LICENSE');
    expect(files).toContain('dist/src/index.js');
    expect(files).toContain('bin/strata.js');
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    expect(files.filter((file) => file.startsWith('src/') || file.startsWith('test/') || file.startsWith('web/'))).toEqual([]);
    expect(files).toContain('dist/web/index.html');
    expect(files).toContain('examples/conversations/kitchen-renovation.json');
    expect(files).toContain('assets/word-vectors-en.bin');
    expect(files).toContain('assets/WORD-VECTORS-NOTICE.md');
  });

  it('recalls by meaning from the installed package: its bundled word vectors and sqlite-vec load', () => {
    const script = [
      "const { createMemory } = require('strata-memory');",
      '(async () => {',
      "  const memory = createMemory({ path: ':memory:', env: { STRATA_LOG_LEVEL: 'silent' } });",
      "  const session = await memory.sessions.create({ title: 'Trips' });",
      "  await session.record({ user: 'We went camping by the lake last weekend with the kids.', assistant: 'Lovely.' });",
      "  await session.record({ user: 'The printer lease starts in March.', assistant: 'Noted.' });",
      "  const hits = await session.search({ query: 'Did we ever go hiking in the mountains?', limit: 3 });",
      '  console.log(JSON.stringify(hits.map((hit) => hit.content)));',
      '  await memory.close();',
      '})();',
    ].join('\n');
    const printed = JSON.parse(run('node', ['-e', script], join(folder, 'app', 'cjs'))) as string[];
    expect(printed).toContain('We went camping by the lake last weekend with the kids.');
  }, 60_000);

  it('serves the built web app and the shipped eval examples from strata serve', async () => {
    const dbFolder = mkdtempSync(join(tmpdir(), 'strata-packed-serve-'));
    // The package's own bin, not npx: a stop signal must reach the server itself.
    const bin = join(folder, 'app', 'node_modules', 'strata-memory', 'bin', 'strata.js');
    const server = spawn(process.execPath, [bin, '--db', join(dbFolder, 'strata.db'), 'serve', '--port', '0', '--no-auth'], { cwd: join(folder, 'app', 'esm'), env: { ...process.env, STRATA_LOG_LEVEL: 'silent' } });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let printed = '';
        server.stdout.on('data', (chunk: Buffer) => {
          printed += chunk.toString();
          const match = /listening on (http:\/\/\S+)/.exec(printed);
          if (match?.[1] !== undefined) resolve(match[1]);
        });
        server.once('exit', (code) => reject(new Error(`strata serve exited with ${String(code)} before listening`)));
      });
      const page = await fetch(`${url}/`);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await page.text();
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      expect((await fetch(`${url}${script}`)).status).toBe(200);
      const examples = (await (await fetch(`${url}/api/eval/examples`)).json()) as { examples: Array<{ name: string }> };
      expect(examples.examples.map((example) => example.name)).toContain('kitchen-renovation');
    } finally {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('close', resolve));
      rmSync(dbFolder, { recursive: true, force: true });
    }
  }, 60_000);

  for (const kind of ['esm', 'cjs'] as const) {
    it(`runs the README's library example from ${kind === 'esm' ? 'an ES module' : 'a CommonJS'} project`, () => {
      const printed = JSON.parse(run('node', ['index.js'], join(folder, 'app', kind))) as { tokens: number; messages: number; facts: string[] };
      expect(printed.tokens).toBeGreaterThan(0);
      expect(printed.tokens).toBeLessThanOrEqual(2000);
      expect(printed.facts.some((text) => text.includes('$45,000'))).toBe(true);
      expect(printed.facts.some((text) => text.includes('card numbers'))).toBe(true);
    }, 60_000);

    it(`runs npx strata demo from ${kind === 'esm' ? 'an ES module' : 'a CommonJS'} project`, () => {
      const printed = run('npx', ['--no-install', 'strata', 'demo'], join(folder, 'app', kind));
      expect(printed).toMatch(/Token reduction: [\d,]+ → [\d,]+ tokens/u);
    }, 120_000);
  }

  it('exports its subpaths to require() as well as import', () => {
    const printed = run(
      'node',
      ['-e', "console.log(Object.keys(require('strata-memory/testing')).join(','), typeof require('strata-memory/server').startServer, 'middleware:' + typeof require('strata-memory/ai-sdk').strataMiddleware)"],
      join(folder, 'app', 'cjs'),
    );
    expect(printed).toContain('createScriptedChatModel');
    expect(printed).toContain('function');
    // (The AI SDK entry imports only the SDK's types: `ai` is an optional peer.)
    expect(printed).toContain('middleware:function');
  });
});

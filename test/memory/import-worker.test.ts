/**
 * Large imports analyse their turns on a worker thread. The compiled worker exists only in a build, so
 * these tests compile it from the sources with esbuild and pass it as `importWorkerScript`: the memory
 * an import writes through the worker must equal the memory of the same import on one thread, and a
 * worker that fails must leave the import complete and say so.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateConversation } from '../../bench/generate-conversation.js';
import type { MemoryOptions } from '../../src/memory/create-memory.js';
import { isStrataError } from '../../src/core/errors.js';
import { bundleForNode } from '../support/bundle.js';
import { testMemory } from '../support/memory-fixtures.js';
import { warnings, type LogRecord } from '../support/recording-logger.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// Inside the project, so the bundle's package imports resolve from its node_modules.
const CACHE = join(ROOT, 'node_modules', '.cache');
const PREFIX = 'strata-import-worker-';
const FOLDER = join(CACHE, `${PREFIX}${process.pid}`);

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Remove the folders of earlier runs that were killed before their cleanup. */
function removeStaleFolders(): void {
  let names: string[];
  try {
    names = readdirSync(CACHE);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(name.slice(PREFIX.length));
    if (name.startsWith(PREFIX) && Number.isInteger(pid) && pid > 0 && !isRunning(pid)) rmSync(join(CACHE, name), { recursive: true, force: true });
  }
}
const WORKER = join(FOLDER, 'manager-worker.mjs');
const BROKEN = join(FOLDER, 'broken-worker.mjs');
const DISAGREEING = join(FOLDER, 'disagreeing-worker.mjs');

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/u;

/**
 * An export with its timestamps blanked: the engine reads the (stepping) test clock more often when it
 * runs the manager itself, so only the times at which things were written differ between the two paths.
 */
function withoutTimes(exported: string): unknown {
  return JSON.parse(exported, (_key, value: unknown) => (typeof value === 'string' && TIMESTAMP.test(value) ? '(time)' : value));
}

/** Import `data` into a fresh memory and return the session's export (times blanked) and the log. */
async function importWith(data: unknown, options: MemoryOptions): Promise<{ exported: unknown; turns: number; records: LogRecord[] }> {
  const { memory, logs, cleanup } = testMemory(options);
  try {
    const result = await memory.sessions.import({ data, title: 'Worker import' });
    const session = await memory.sessions.open(result.sessionId);
    return { exported: withoutTimes(await session.export({ format: 'json' })), turns: result.turns, records: logs };
  } finally {
    await cleanup();
  }
}

describe('import on a worker thread', () => {
  // 450 turns: past the size from which an import uses the worker, with facts, corrections and code.
  const conversation = generateConversation(900, 5);
  let oneThread: Awaited<ReturnType<typeof importWith>>;

  beforeAll(async () => {
    removeStaleFolders();
    mkdirSync(FOLDER, { recursive: true });
    await bundleForNode(join(ROOT, 'src', 'memory', 'manager-worker.ts'), WORKER);
    await bundleForNode(join(ROOT, 'test', 'memory', 'disagreeing-worker.ts'), DISAGREEING);
    writeFileSync(BROKEN, "throw new Error('this worker cannot start');\n");
    oneThread = await importWith(conversation, { importWorker: false });
  });

  afterAll(() => {
    rmSync(FOLDER, { recursive: true, force: true });
  });

  it('writes the same memory as an import on one thread, and says the worker did the analysis', async () => {
    const worker = await importWith(conversation, { importWorkerScript: pathToFileURL(WORKER) });
    expect(worker.turns).toBe(450);
    expect(worker.exported).toEqual(oneThread.exported);
    expect(warnings(worker.records)).toEqual([]);
    expect(worker.records).toContainEqual({
      level: 'info',
      details: expect.objectContaining({ turns: 450, workerTurns: 450 }),
      message: 'import analysed on a worker thread',
    });
    expect(oneThread.records.some((record) => record.message.includes('worker'))).toBe(false);
  });

  it('finishes the import on the calling thread when the worker cannot start, and warns', async () => {
    const broken = await importWith(conversation, { importWorkerScript: pathToFileURL(BROKEN) });
    expect(broken.exported).toEqual(oneThread.exported);
    const warning = warnings(broken.records)[0];
    expect(warning?.message).toBe('import worker stopped; the turns it had not answered were analysed on the calling thread');
    expect(warning?.details).toMatchObject({ turns: 450, workerTurns: 0 });
    expect(String(warning?.details.problem)).toContain('this worker cannot start');
  });

  it('stops using a worker whose consolidation differs from the engine\'s, and finishes the import alike', async () => {
    const disagreeing = await importWith(conversation, { importWorkerScript: pathToFileURL(DISAGREEING) });
    expect(disagreeing.exported).toEqual(oneThread.exported);
    const warning = warnings(disagreeing.records)[0];
    expect(warning?.message).toBe('import worker stopped; the turns it had not answered were analysed on the calling thread');
    expect(String(warning?.details.problem)).toBe('the worker read the consolidation for turn 30 otherwise than the engine');
    expect(Number(warning?.details.workerTurns)).toBeLessThan(450);
  });

  it('refuses a worker script that is not a file: URL, naming the option', () => {
    for (const script of [new URL('https://example.com/manager-worker.js'), '/tmp/manager-worker.js']) {
      let caught: unknown;
      try {
        testMemory({ importWorkerScript: script as URL });
      } catch (error) {
        caught = error;
      }
      expect(isStrataError(caught, 'INVALID_CONFIG')).toBe(true);
      expect((caught as Error).message).toContain('importWorkerScript must be a file: URL');
    }
  });

  it('does not start the worker for a small import', async () => {
    const small = await importWith(conversation.slice(0, 100), { importWorkerScript: pathToFileURL(BROKEN) });
    expect(small.turns).toBe(50);
    expect(small.records.some((record) => record.message.includes('worker'))).toBe(false);
  });
});

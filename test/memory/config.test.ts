import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isStrataError } from '../../src/core/errors.js';
import { resolveSettings } from '../../src/memory/config.js';
import { temporaryFolder } from '../support/memory-fixtures.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

function configFile(content: string): string {
  const folder = temporaryFolder();
  cleanups.push(folder.cleanup);
  const path = join(folder.path, 'strata.config.json');
  writeFileSync(path, content);
  return path;
}

function failure(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    expect(isStrataError(error, 'INVALID_CONFIG')).toBe(true);
    return error as Error;
  }
  throw new Error('expected an INVALID_CONFIG error');
}

describe('settings', () => {
  it('uses the defaults when nothing is set', () => {
    expect(resolveSettings({ env: {}, configFile: configFile('{}') })).toEqual({
      path: './strata.db',
      tenant: 'default',
      tokenizer: 'o200k_base',
      rawWindowTurns: 6,
      maxMessageBytes: 524_288,
      durability: 'full',
      busyTimeoutMs: 5000,
      importWorker: true,
      contextBudget: 30_000,
      memoryWaitMs: 10_000,
      detailRounds: 2,
      detailProtocol: 'auto',
      raisedTierTurns: 20,
      recall: 'hybrid',
      contextWindowTokens: 30_000,
      readSliceMs: 25,
      retryBaseMs: 2_000,
      consolidateEveryTurns: 15,
      promote: true,
      tendEveryHours: 24,
      refineTagsAbove: 20,
      tagRefinement: 'auto',
      snapshotEveryTurns: 15,
      cacheMegabytes: 64,
      logLevel: 'warn',
    });
  });

  it('takes options over environment variables over the config file', () => {
    const file = configFile(JSON.stringify({ path: 'file.db', tenant: 'from-file', rawWindowTurns: 2, tokenizer: 'cl100k_base' }));
    const settings = resolveSettings({
      configFile: file,
      env: { STRATA_DB: 'env.db', STRATA_RAW_WINDOW_TURNS: '4' },
      options: { path: 'option.db' },
    });
    expect(settings).toMatchObject({ path: 'option.db', rawWindowTurns: 4, tenant: 'from-file', tokenizer: 'cl100k_base' });
  });

  it('reads STRATA_CONFIG when no file is given', () => {
    const file = configFile(JSON.stringify({ tenant: 'acme' }));
    expect(resolveSettings({ env: { STRATA_CONFIG: file } }).tenant).toBe('acme');
  });

  it('reads booleans from variables', () => {
    expect(resolveSettings({ env: { STRATA_IMPORT_WORKER: 'false' }, configFile: configFile('{}') }).importWorker).toBe(false);
    expect(resolveSettings({ env: { STRATA_IMPORT_WORKER: 'on' }, configFile: configFile('{}') }).importWorker).toBe(true);
    expect(failure(() => resolveSettings({ env: { STRATA_IMPORT_WORKER: 'maybe' }, configFile: configFile('{}') })).message).toMatch(/STRATA_IMPORT_WORKER/u);
  });

  it('names the option and the variable to fix', () => {
    expect(failure(() => resolveSettings({ env: { STRATA_RAW_WINDOW_TURNS: 'six' }, configFile: configFile('{}') })).message).toMatch(
      /rawWindowTurns: .*fix the "rawWindowTurns" option or STRATA_RAW_WINDOW_TURNS/u,
    );
    expect(failure(() => resolveSettings({ env: { STRATA_TOKENIZER: 'p50k' }, configFile: configFile('{}') })).message).toMatch(/STRATA_TOKENIZER/u);
    // A number that is not whole is refused as such, not as "a string".
    const fraction = failure(() => resolveSettings({ env: { STRATA_CONSOLIDATE_EVERY_TURNS: '1.5' }, configFile: configFile('{}') })).message;
    expect(fraction).toMatch(/consolidateEveryTurns: must be a whole number \(got 1\.5\)/u);
    expect(fraction).not.toContain('received string');
    // The value as given, and the rule it breaks.
    expect(failure(() => resolveSettings({ env: { STRATA_CONTEXT_BUDGET: 'abc' }, configFile: configFile('{}') })).message).toMatch(/contextBudget: must be a number \(got "abc"\)/u);
    expect(failure(() => resolveSettings({ env: { STRATA_CONTEXT_BUDGET: '0' }, configFile: configFile('{}') })).message).toMatch(/contextBudget: must be at least 1 \(got 0\)/u);
    expect(failure(() => resolveSettings({ env: { STRATA_TOKENIZER: 'p50k' }, configFile: configFile('{}') })).message).toMatch(/tokenizer: must be one of o200k_base, cl100k_base \(got "p50k"\)/u);
    expect(failure(() => resolveSettings({ env: {}, options: { path: '' }, configFile: configFile('{}') })).message).toMatch(/path: must not be empty \(got ""\)/u);
    expect(failure(() => resolveSettings({ env: { STRATA_CONTEXT_BUDGET: String(2 ** 60) }, configFile: configFile('{}') })).message.match(/contextBudget:/gu)).toHaveLength(1);
    expect(resolveSettings({ env: { STRATA_CACHE_MB: '+32' }, configFile: configFile('{}') }).cacheMegabytes).toBe(32);
    expect(failure(() => resolveSettings({ env: {}, configFile: configFile('{"colour": "blue"}') })).message).toMatch(/colour|Unrecognized/u);
  });

  it('reports a broken or missing config file that was asked for', () => {
    expect(failure(() => resolveSettings({ env: {}, configFile: configFile('{ not json') })).message).toMatch(/not valid JSON/u);
    expect(failure(() => resolveSettings({ env: {}, configFile: configFile('[1, 2]') })).message).toMatch(/must hold a JSON object/u);
    expect(failure(() => resolveSettings({ env: {}, configFile: '/nonexistent/strata.config.json' })).message).toMatch(/Cannot read the config file/u);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readableLogLine } from '../../src/cli/readable-logs.js';
import { createWorkspace, type Workspace } from './helpers.js';

let ws: Workspace;
beforeEach(() => {
  ws = createWorkspace();
});
afterEach(() => ws.cleanup());

describe("the engine's logs in the CLI", () => {
  it('reads a JSON log record as one line with its level in words, and passes anything else on', () => {
    expect(readableLogLine('{"level":40,"time":1,"name":"strata","msg":"turn 3 was stored raw"}\n')).toBe('strata: warning: turn 3 was stored raw');
    expect(readableLogLine('{"level":50,"msg":"disk full"}')).toBe('strata: error: disk full');
    expect(readableLogLine('{"level":30,"msg":"base-truth snapshot"}')).toBe('strata: info: base-truth snapshot');
    expect(readableLogLine('not json\n')).toBe('not json');
  });

  it('writes readable lines on a terminal and JSON lines otherwise or with --debug', async () => {
    const file = ws.write('chat.json', JSON.stringify([
      { role: 'user', content: 'Our budget is $40,000.' },
      { role: 'assistant', content: 'Noted.' },
    ]));
    const env = { STRATA_LOG_LEVEL: 'info', STRATA_SNAPSHOT_EVERY_TURNS: '1' };
    const terminal = await ws.run(['chat', '--replay', file], { env, stderrIsTty: true });
    expect(terminal.code).toBe(0);
    expect(terminal.stderr).toMatch(/^strata: info: base-truth snapshot/mu);
    expect(terminal.stderr).not.toContain('{"level"');
    const piped = await ws.run(['chat', '--replay', file], { env });
    expect(piped.stderr).toMatch(/^\{"level":30,.*"msg":"base-truth snapshot/mu);
    const debug = await ws.run(['chat', '--replay', file, '--debug'], { env, stderrIsTty: true });
    expect(debug.stderr).toContain('{"level":30');
  });
});

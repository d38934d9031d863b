import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main, type CliIo } from '../../src/cli/main.js';

/** An io that records everything the CLI writes. */
export interface CapturedIo extends CliIo {
  out(): string;
  err(): string;
}

export function captureIo(options: { cwd: string; env?: Record<string, string | undefined>; stderrIsTty?: boolean; stdin?: NodeJS.ReadableStream }): CapturedIo {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout: { write: (text: string) => void stdout.push(text), isTTY: false },
    stderr: { write: (text: string) => void stderr.push(text), isTTY: options.stderrIsTty === true, columns: 100 },
    env: options.env ?? {},
    cwd: options.cwd,
    ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
    out: () => stdout.join(''),
    err: () => stderr.join(''),
  };
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A temporary folder with a database path; `run` calls main() in-process against it. */
export interface Workspace {
  dir: string;
  db: string;
  /** Run `strata <args…> --db <db>` with a fresh capturing io. */
  run(args: string[], options?: { env?: Record<string, string | undefined>; stderrIsTty?: boolean; noDb?: boolean; stdin?: NodeJS.ReadableStream }): Promise<RunResult>;
  /** Write a file into the folder and return its path. */
  write(name: string, content: string): string;
  cleanup(): void;
}

export function createWorkspace(): Workspace {
  const dir = mkdtempSync(join(tmpdir(), 'strata-cli-test-'));
  const db = join(dir, 'test.db');
  return {
    dir,
    db,
    run: async (args, options = {}) => {
      const io = captureIo({ cwd: dir, env: options.env ?? {}, stderrIsTty: options.stderrIsTty === true, ...(options.stdin === undefined ? {} : { stdin: options.stdin }) });
      const code = await main(['node', 'strata', ...args, ...(options.noDb === true ? [] : ['--db', db])], io);
      return { code, stdout: io.out(), stderr: io.err() };
    },
    write: (name, content) => {
      const path = join(dir, name);
      writeFileSync(path, content, 'utf8');
      return path;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A plain `[{role, content}]` conversation of `turns` turns. */
export function plainConversation(turns: number): Array<{ role: 'user' | 'assistant'; content: string }> {
  const messages: Array<{ role: 'user' | 'assistant'; content: string }> = [];
  for (let turn = 1; turn <= turns; turn += 1) {
    messages.push({ role: 'user', content: `Question ${turn}: how should we plan step ${turn} of the garden project?` });
    messages.push({ role: 'assistant', content: `For step ${turn}, water the tomatoes in the morning and check the soil before planting.` });
  }
  return messages;
}

/**
 * The engine's log records as a person at a terminal reads them: `strata: warning: <message>`, one line
 * each. Scripts and `--debug` get the JSON lines themselves.
 */
import type { LogDestination } from '../memory/memory-logger.js';
import { writeLine, type CliOutput } from './io.js';

/** Pino's numeric levels, by the word shown. */
const LEVEL_WORDS: ReadonlyArray<[number, string]> = [
  [60, 'fatal'],
  [50, 'error'],
  [40, 'warning'],
  [30, 'info'],
  [20, 'debug'],
  [0, 'trace'],
];

/** One JSON log line as a line of text; a line that is not a log record is passed on as it is. */
export function readableLogLine(line: string): string {
  let record: { level?: unknown; msg?: unknown };
  try {
    record = JSON.parse(line) as { level?: unknown; msg?: unknown };
  } catch {
    return line.trimEnd();
  }
  if (typeof record !== 'object' || record === null || typeof record.msg !== 'string') return line.trimEnd();
  const level = typeof record.level === 'number' ? record.level : 30;
  const word = LEVEL_WORDS.find(([floor]) => level >= floor)?.[1] ?? 'info';
  return `strata: ${word}: ${record.msg}`;
}

/** Where logs go for a CLI run: readable lines on a terminal, JSON lines otherwise or with --debug. */
export function logDestinationFor(stderr: CliOutput, options: { debug: boolean; json: boolean }): LogDestination {
  if (stderr.isTTY !== true || options.debug || options.json) return stderr;
  return { write: (line) => writeLine(stderr, readableLogLine(line)) };
}

import type { MemoryLogger } from '../../src/memory/memory-logger.js';

/** One log record the engine wrote. */
export interface LogRecord {
  level: 'warn' | 'info' | 'debug';
  details: Record<string, unknown>;
  message: string;
}

/**
 * A logger that keeps the engine's records for the test to read, so a test can assert what a failure
 * logged and the test output stays free of expected warnings.
 */
export function recordingLogger(): { logger: MemoryLogger; records: LogRecord[] } {
  const records: LogRecord[] = [];
  const keep = (level: LogRecord['level']) => (details: object, message: string) => {
    records.push({ level, details: details as Record<string, unknown>, message });
  };
  return { logger: { warn: keep('warn'), info: keep('info'), debug: keep('debug') }, records };
}

/** The warnings among `records`, in order, with their details. */
export function warnings(records: readonly LogRecord[]): Array<Pick<LogRecord, 'message' | 'details'>> {
  return records.filter((record) => record.level === 'warn').map(({ message, details }) => ({ message, details }));
}

/**
 * Structured logs of the engine, written with pino. The engine only needs the few methods below, so
 * an application can pass its own pino logger (or a child of it); by default JSON lines go to stderr
 * at the `logLevel` setting (`warn`: fallbacks, stale turns and retry failures only).
 */
import { pino } from 'pino';
import type { Settings } from './config.js';

/** The part of a pino logger the engine uses. */
export interface MemoryLogger {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
  debug(details: object, message: string): void;
  /** Whether records of `level` are written (pino has it); when absent, everything is assumed written. */
  isLevelEnabled?(level: string): boolean;
}

/** Where JSON log lines are written. */
export interface LogDestination {
  write(line: string): void;
}

/**
 * The default logger: pino, JSON lines on stderr (synchronous, so nothing is lost when a CLI exits),
 * or on `destination` when given (the CLI passes the stderr it was given).
 */
export function createMemoryLogger(level: Settings['logLevel'], destination?: LogDestination): MemoryLogger {
  return pino({ name: 'strata', level }, destination ?? pino.destination({ dest: 2, sync: true }));
}

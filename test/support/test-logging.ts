import { Logger, LogLevel } from '@nestjs/common';

/** Nest's levels, most severe first, by the LOG_LEVEL name (pino's) that shows them. */
const NEST_LEVELS: Record<string, LogLevel[]> = {
  fatal: ['fatal'],
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  info: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug'],
  trace: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
};

/**
 * Nest's default logger, which prints where no app's logger is: the migration runner (TypeORM's
 * migration lines, at debug) in the global setup and in throwaway databases, and an app's start-up
 * before its own logger. At debug they printed in the middle of Jest's report; tests show warnings
 * and errors only, unless TEST_LOG_LEVEL (a LOG_LEVEL name, e.g. debug) asks for more. The apps'
 * own LOG_LEVEL is set apart, per app, by the tests that read their logs.
 */
export function quietDefaultLogger(level = process.env.TEST_LOG_LEVEL ?? 'warn'): void {
  if (level === 'silent') return Logger.overrideLogger(false);
  const levels = NEST_LEVELS[level];
  if (!levels) throw new Error(`TEST_LOG_LEVEL must be one of ${Object.keys(NEST_LEVELS).join(', ')}, silent`);
  Logger.overrideLogger(levels);
}

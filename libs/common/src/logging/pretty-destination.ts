import type { Writable } from 'node:stream';
import type { DestinationStream } from 'pino';

/** Nest's start-up chatter: one line per controller and per route, useful only when debugging. */
export const ROUTE_MAPPING_CONTEXTS: ReadonlySet<string> = new Set(['RoutesResolver', 'RouterExplorer']);

type Entry = Record<string, unknown> & { time?: string; app?: string; level?: string; context?: string; msg?: string; requestId?: string };

/**
 * One pino JSON line as a line a person reads: `12:00:01.234 auth-api INFO  [Context] message`,
 * then the request's method, URL, status and time for request lines, and the request id.
 */
export function prettyLine(json: string): string {
  let entry: Entry;
  try {
    entry = JSON.parse(json) as Entry;
  } catch {
    return json.trimEnd();
  }
  const time = typeof entry.time === 'string' ? entry.time.slice(11, 23) : '';
  const level = String(entry.level ?? '')
    .toUpperCase()
    .padEnd(5);
  const context = entry.context ? ` [${entry.context}]` : '';
  const parts = [`${time} ${entry.app ?? ''} ${level}${context} ${entry.msg ?? ''}`];
  const req = entry.req as { method?: string; url?: string } | undefined;
  const res = entry.res as { statusCode?: number } | undefined;
  if (req?.method)
    parts.push(
      `${req.method} ${req.url ?? ''}${res?.statusCode ? ` ${res.statusCode}` : ''}${entry.responseTime !== undefined ? ` ${String(entry.responseTime)} ms` : ''}`,
    );
  const error = entry.err as { message?: string } | undefined;
  if (error?.message) parts.push(error.message);
  if (entry.requestId) parts.push(`(${entry.requestId})`);
  return parts.join(' ');
}

/** A pino destination writing prettyLine() of each line to `out` (standard output by default). */
export function prettyDestination(out: Pick<Writable, 'write'> = process.stdout): DestinationStream {
  return { write: (line: string) => void out.write(`${prettyLine(line)}\n`) };
}

import { Readable } from 'node:stream';

/**
 * How long a test waits for a line before failing: a guard against a line that never comes, not a
 * speed check (on a loaded two-core machine a process answers many times slower than on a quiet one).
 */
export const LINE_WAIT_MS = 60_000;

/** The same guard for an app's start-up (Node loading Nest, connecting to Postgres and Redis). */
export const START_UP_WAIT_MS = 90_000;

/** Collects a process's output line by line and lets a test wait for a line (event-driven, no polling). */
export class LineCollector {
  readonly lines: string[] = [];
  private waiters: { match: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  private partial = new Map<Readable, string>();

  attach(stream: Readable): void {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const text = (this.partial.get(stream) ?? '') + chunk;
      const parts = text.split('\n');
      this.partial.set(stream, parts.pop() ?? '');
      for (const line of parts) this.push(line);
    });
    stream.on('end', () => {
      const rest = this.partial.get(stream);
      if (rest) this.push(rest);
      this.partial.delete(stream);
    });
  }

  /** Resolves with the first line (already seen or still to come) that matches. */
  waitFor(match: (line: string) => boolean, timeoutMs = LINE_WAIT_MS, what = 'a matching line'): Promise<string> {
    const seen = this.lines.find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter.resolve !== done);
        reject(new Error(`Timed out waiting for ${what}; last lines:\n${this.lines.slice(-15).join('\n')}`));
      }, timeoutMs);
      const done = (line: string) => {
        clearTimeout(timer);
        resolve(line);
      };
      this.waiters.push({ match, resolve: done });
    });
  }

  /** Resolves once `count` lines in all (seen or still to come) match. */
  async waitForCount(match: (line: string) => boolean, count: number, timeoutMs = LINE_WAIT_MS, what = 'matching lines'): Promise<void> {
    let seen = this.lines.filter(match).length;
    if (seen >= count) return;
    const waiting = { match: (line: string) => match(line) && ++seen >= count, resolve: (_line: string) => undefined as void };
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter !== waiting);
        reject(new Error(`Timed out waiting for ${count} ${what} (saw ${seen}); last lines:\n${this.lines.slice(-15).join('\n')}`));
      }, timeoutMs);
      waiting.resolve = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push(waiting);
    });
  }

  private push(line: string): void {
    this.lines.push(line);
    for (const waiter of this.waiters.filter((candidate) => candidate.match(line))) {
      this.waiters = this.waiters.filter((candidate) => candidate !== waiter);
      waiter.resolve(line);
    }
  }
}

/** A logger for the example app that keeps test output clean but keeps what was logged. */
export function silentLogger(): { log: (...args: unknown[]) => void; error: (...args: unknown[]) => void; lines: string[] } {
  const lines: string[] = [];
  const keep = (...args: unknown[]) => {
    lines.push(args.map(String).join(' '));
  };
  return { log: keep, error: keep, lines };
}

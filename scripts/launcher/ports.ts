import { createServer } from 'node:net';

export interface NamedPort {
  name: string;
  port: number;
}

/**
 * Fails with one message naming every port already taken. Without this check a launcher left running
 * elsewhere would answer our health checks, and the new processes would die with EADDRINUSE later.
 */
export async function assertPortsFree(ports: NamedPort[], host = '127.0.0.1'): Promise<void> {
  const taken: NamedPort[] = [];
  for (const entry of ports) {
    if (!(await isFree(entry.port, host))) taken.push(entry);
  }
  if (taken.length > 0) {
    const list = taken.map(({ name, port }) => `${port} (${name})`).join(', ');
    throw new Error(
      `Port${taken.length > 1 ? 's' : ''} already in use: ${list}. Is Sesame already running? Stop it, or choose other ports (see docs/local-development.md).`,
    );
  }
}

function isFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const REPOSITORY_ROOT = join(__dirname, '..', '..', '..');
/** The podman settings scripts/containers/podman-env.sh writes (runc, ulimits this machine allows). */
const env = { ...process.env, CONTAINERS_CONF: join(REPOSITORY_ROOT, '.data/containers/containers.conf') };

/** Runs `node scripts/containers/stack.mjs <command>` (what the README's podman section runs), output shown. */
export function stack(
  command: 'images' | 'up' | 'down' | 'healthy',
  options: { args?: string[]; env?: Record<string, string> } = {},
): void {
  const result = spawnSync('node', ['scripts/containers/stack.mjs', command, ...(options.args ?? [])], {
    cwd: REPOSITORY_ROOT,
    env: { ...env, ...options.env },
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`stack.mjs ${command} exited ${result.status}`);
}

export function podman(...args: string[]): string {
  return execFileSync('podman', args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** Whether a podman command succeeds (e.g. a write the container must refuse). */
export const podmanSucceeds = (...args: string[]) => spawnSync('podman', args, { env, stdio: 'ignore' }).status === 0;

/** podman-compose's name for the one container of a service. */
export const containerOf = (service: string) => `sesame_${service}_1`;

/** Waits until the service's own HEALTHCHECK passes (stack.mjs runs it: podman runs none without systemd). */
export const healthy = (service: string) => stack('healthy', { args: [service] });

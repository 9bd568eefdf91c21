/** What the numbers were measured on: CPUs, versions, and how busy the machine was. */
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import Redis from 'ioredis';
import { Client } from 'pg';
import { tasksetAvailable } from './processes';

export interface Machine {
  cpus: number;
  cpuModel: string;
  node: string;
  postgres: string;
  redis: string;
  taskset: boolean;
  loadAverage: number[];
}

export async function describeMachine(adminDatabaseUrl: string, redisUrl: string): Promise<Machine> {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  const cpuModel = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? 'unknown';
  const client = new Client({ connectionString: adminDatabaseUrl });
  await client.connect();
  const postgres = await client
    .query<{ server_version: string }>('SHOW server_version')
    .then((result) => result.rows[0].server_version)
    .finally(() => client.end());
  const redis = new Redis(redisUrl);
  const info = await redis.info('server').finally(() => redis.quit());
  return {
    cpus: availableParallelism(),
    cpuModel,
    node: process.version,
    postgres,
    redis: /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown',
    taskset: tasksetAvailable(),
    loadAverage: loadavg(),
  };
}

export function machineLine(machine: Machine, loadAfter: number[]): string {
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' ');
  return (
    `${machine.cpus} CPUs (${machine.cpuModel}), Node ${machine.node}, PostgreSQL ${machine.postgres}, Redis ${machine.redis}; ` +
    `pinning ${machine.taskset ? 'with taskset' : 'NOT available (taskset missing): unpinned'}; ` +
    `load average (1/5/15 min) before ${load(machine.loadAverage)}, after ${load(loadAfter)}`
  );
}

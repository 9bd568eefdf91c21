import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const REPOSITORY_ROOT = resolve(__dirname, '../../..');
export const DOCKERFILE = resolve(REPOSITORY_ROOT, 'docker/Dockerfile');

export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  name: string;
  from: string;
  instructions: Instruction[];
}

/** The stages of a Dockerfile, with line continuations joined and comments dropped. */
export function parseDockerfile(text: string = readFileSync(DOCKERFILE, 'utf8')): Stage[] {
  const logical = text
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of logical) {
    const [, keyword, args = ''] = /^(\S+)\s*(.*)$/.exec(line)!;
    const instruction = { keyword: keyword.toUpperCase(), args };
    if (instruction.keyword === 'FROM') {
      const [, from, name] = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args)!;
      stages.push({ name: name ?? `stage-${stages.length}`, from, instructions: [] });
    } else if (stages.length > 0) {
      stages[stages.length - 1].instructions.push(instruction);
    }
  }
  return stages;
}

/** A stage and the stages it is built FROM, nearest first. */
function lineage(stages: Stage[], target: string): Stage[] {
  const chain: Stage[] = [];
  let stage = stages.find((candidate) => candidate.name === target);
  if (!stage) throw new Error(`docker/Dockerfile has no stage ${target}`);
  while (stage) {
    chain.push(stage);
    stage = stages.find((candidate) => candidate.name === stage!.from);
  }
  return chain;
}

/** The last value of an instruction in effect for a target (inherited from its base stages). */
export function effective(stages: Stage[], target: string, keyword: string): string | undefined {
  for (const stage of lineage(stages, target)) {
    const found = stage.instructions.filter((instruction) => instruction.keyword === keyword).pop();
    if (found) return found.args;
  }
  return undefined;
}

/** Every RUN of a stage, in order. */
export function runs(stages: Stage[], name: string): string[] {
  return lineage(stages, name)[0]
    .instructions.filter((instruction) => instruction.keyword === 'RUN')
    .map((instruction) => instruction.args);
}

/** The exec-form command of a target's CMD: what its container runs. */
export function startCommand(target: string, stages = parseDockerfile()): string[] {
  const cmd = effective(stages, target, 'CMD');
  if (!cmd) throw new Error(`${target} has no CMD`);
  return JSON.parse(cmd) as string[];
}

/** The exec-form command of a target's HEALTHCHECK. */
export function healthCheckCommand(target: string, stages = parseDockerfile()): string[] {
  const healthcheck = effective(stages, target, 'HEALTHCHECK');
  const match = /\bCMD\s+(\[.*\])\s*$/.exec(healthcheck ?? '');
  if (!match) throw new Error(`${target} has no exec-form HEALTHCHECK`);
  return JSON.parse(match[1]) as string[];
}

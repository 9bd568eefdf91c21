import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { log } from '../bench/settings';
import { LoginLoad, probeRecovery, tally } from './login-load';
import { DrillResult, emptyResult, failures } from './result';
import { Apps, DrillStack, stopAll } from './stack';

/** Login requests a drill sends, over this long, with the fault this far into them. */
const LOAD_SECONDS = 8;
const FAULT_AFTER_MS = 3000;

export interface Fault {
  /** Environment of the drill's apps. */
  env?: NodeJS.ProcessEnv;
  /** Whether auth-api's own dependency goes away (a 503 is then an expected refusal). */
  dependencyDown: boolean;
  /** Before the load starts. */
  prepare?(apps: Apps): Promise<void>;
  /** Breaks something and repairs it (or has it repaired); resolves with when the dependency was back. */
  inject(apps: Apps, result: DrillResult): Promise<number>;
  /** Undoes what prepare() changed outside the drill's apps, even when the drill failed. */
  cleanup?(): Promise<void>;
}

/** A drill of the login flow: apps up, logins under load, the fault in the middle, recovery probed, every e-mail accounted for. */
export async function underLoad(stack: DrillStack, name: string, fault: Fault): Promise<DrillResult> {
  const result = emptyResult(name);
  const apps = await stack.startApps(fault.env);
  try {
    await fault.prepare?.(apps);
    const load = new LoginLoad(stack, name, () => apps.auth.url);
    const running = load.run(LOAD_SECONDS);
    await sleep(FAULT_AFTER_MS);
    const back = await fault.inject(apps, result);
    result.recoveryMs = await probeRecovery(stack, apps.auth.url, back);
    if (result.recoveryMs === null) result.problems.push('no login worked end to end again within 60 s');
    await running;
    await tally(stack, load, result, apps.management.url, (outcome) => fault.dependencyDown && outcome.status === '503');
  } finally {
    await fault.cleanup?.();
    await stopAll(apps);
    if (failures(result).length) keepLogs(name, apps);
  }
  return result;
}

/** The end of each app's output (JSON logs at LOG_LEVEL), kept where a failed drill's cause can be read. */
function keepLogs(name: string, apps: Apps): void {
  const dir = mkdtempSync(join(tmpdir(), `sesame-drill-${name}-`));
  for (const [app, server] of Object.entries({ 'management-api': apps.management, 'auth-api': apps.auth, 'mail-worker': apps.worker })) {
    writeFileSync(join(dir, `${app}.log`), server.process.output());
  }
  log(`drill ${name} failed: the apps' logs are in ${dir}`);
}

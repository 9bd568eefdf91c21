import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';

/** How the maintenance job waits between batches: a provider, so unit tests decide when a pause ends. */
@Injectable()
export class MaintenancePause {
  /** Resolves after `ms`, or as soon as `signal` aborts (shutdown must not wait a pause out); never rejects. */
  async wait(ms: number, signal: AbortSignal): Promise<void> {
    await sleep(ms, undefined, { signal }).catch(() => undefined);
  }
}

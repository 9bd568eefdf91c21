import { setTimeout as sleep } from 'node:timers/promises';
import { Fault } from './under-load';
import { DrillStack } from './stack';

/** How long the SMTP server is away. */
const DOWN_MS = 5000;

/** The SMTP server goes away (connections refused) for DOWN_MS and comes back on its address; the e-mails wait and go out. */
export const smtpDown = (stack: DrillStack): Fault => ({
  dependencyDown: false,
  async inject() {
    await stack.smtp.stop();
    await sleep(DOWN_MS);
    await stack.smtp.start(Number(new URL(stack.smtpUrl).port));
    return Date.now();
  },
});

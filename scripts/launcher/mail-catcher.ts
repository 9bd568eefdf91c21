import { dirname, join } from 'node:path';
import { ProcessSupervisor } from './process-supervisor';
import { httpOk, tcpOpen, waitUntil } from './wait';

export interface MailCatcherOptions {
  smtpPort: number;
  webPort: number;
  /** Where received mail is kept, so the inbox survives a restart. */
  mailDir: string;
}

export interface MailCatcher {
  smtpUrl: string;
  inboxUrl: string;
}

/**
 * Starts MailDev (SMTP sink with a web inbox) as a child process. Not in-process: MailDev installs
 * SIGINT/SIGTERM handlers that call process.exit(0), which would cut the launcher's shutdown short.
 */
export async function startMailCatcher(supervisor: ProcessSupervisor, options: MailCatcherOptions): Promise<MailCatcher> {
  const maildev = supervisor.start({
    name: 'maildev',
    command: process.execPath,
    args: [
      join(dirname(require.resolve('maildev/package.json')), 'bin', 'maildev'),
      '--smtp',
      String(options.smtpPort),
      '--web',
      String(options.webPort),
      '--ip',
      '127.0.0.1',
      '--mail-directory',
      options.mailDir,
    ],
  });
  const inboxUrl = `http://localhost:${options.webPort}`;
  await waitUntil(
    async () => {
      await tcpOpen('127.0.0.1', options.smtpPort);
      await httpOk(`http://127.0.0.1:${options.webPort}/`);
    },
    { description: `MailDev on ports ${options.smtpPort} and ${options.webPort}`, process: maildev },
  );
  return { smtpUrl: mailCatcherSmtpUrl(options), inboxUrl };
}

export function mailCatcherSmtpUrl(options: Pick<MailCatcherOptions, 'smtpPort'>): string {
  return `smtp://127.0.0.1:${options.smtpPort}`;
}

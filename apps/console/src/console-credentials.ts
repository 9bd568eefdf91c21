import { readFileSync } from 'node:fs';
import { SesameConfig } from '@sesame/common';

/** The console's own client id and secret: written by `npm run cli -- console:setup --credentials-file <file>`. */
export interface ConsoleCredentials {
  clientId: string;
  clientSecret: string;
}

/** The provider token of the console's credentials. */
export const CONSOLE_CREDENTIALS = Symbol('CONSOLE_CREDENTIALS');

/** Reads CONSOLE_CREDENTIALS_FILE at start-up; a missing or malformed file stops the console with a message that says what to run. */
export function readConsoleCredentials(config: SesameConfig): ConsoleCredentials {
  const file = config.console.credentialsFile;
  const setUp =
    'run `npm run cli -- console:setup --credentials-file <file>` (npm start and docker compose do) and set CONSOLE_CREDENTIALS_FILE to that file';
  if (!file) throw new Error(`CONSOLE_CREDENTIALS_FILE is not set: ${setUp}`);
  let parsed: Partial<ConsoleCredentials>;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<ConsoleCredentials>;
  } catch (error) {
    throw new Error(`CONSOLE_CREDENTIALS_FILE (${file}) cannot be read (${(error as Error).message}): ${setUp}`, { cause: error });
  }
  if (typeof parsed.clientId !== 'string' || typeof parsed.clientSecret !== 'string' || !parsed.clientId || !parsed.clientSecret) {
    throw new Error(`CONSOLE_CREDENTIALS_FILE (${file}) has no clientId and clientSecret: ${setUp}`);
  }
  return { clientId: parsed.clientId, clientSecret: parsed.clientSecret };
}

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** What the example needs to talk to Sesame. */
export interface ExampleConfig {
  /** Sesame's public base URL with the API prefix, e.g. http://localhost:3000/api. */
  sesameUrl: string;
  clientId: string;
  clientSecret: string;
  /** Shown in the page titles. */
  appName?: string;
  /** Read X-Forwarded-Proto/-Host (only behind a proxy that sets them). */
  trustProxy?: boolean;
  /** Take part in autologin walks of the organization (the client's `autologin` option). */
  autologin?: boolean;
  /** Where sign-ins and errors are logged (default: the console). */
  logger?: Pick<Console, 'log' | 'error'>;
}

export interface ListenConfig extends ExampleConfig {
  port: number;
  /** Interface to listen on (default: all, so that http://localhost:4000 works over IPv4 and IPv6). */
  host: string | undefined;
}

/** The launcher (`npm start`) writes the demo application's credentials here. */
export const DEMO_FILE = resolve(__dirname, '..', '..', '..', '.data', 'demo.json');

/**
 * The configuration from the environment, with the demo application of `npm start` as the default:
 * SESAME_URL (default http://localhost:3000/api), SESAME_CLIENT_ID and SESAME_CLIENT_SECRET
 * (default: from .data/demo.json, or the file in SESAME_DEMO_FILE), SESAME_AUTOLOGIN (`true` to take
 * part in autologin walks), PORT (4000) and HOST.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ListenConfig {
  const demoFile = env.SESAME_DEMO_FILE || DEMO_FILE;
  const demo = readDemo(demoFile);
  const clientId = env.SESAME_CLIENT_ID || demo?.clientId;
  const clientSecret = env.SESAME_CLIENT_SECRET || demo?.clientSecret;
  if (!clientId || !clientSecret) {
    throw new Error(
      `No client credentials: start Sesame with \`npm start\` first (it writes ${demoFile}), or set SESAME_CLIENT_ID and SESAME_CLIENT_SECRET.`,
    );
  }
  return {
    sesameUrl: env.SESAME_URL || 'http://localhost:3000/api',
    clientId,
    clientSecret,
    appName: env.APP_NAME || 'Sesame example',
    trustProxy: env.TRUST_PROXY === 'true',
    autologin: env.SESAME_AUTOLOGIN === 'true',
    port: Number(env.PORT || 4000),
    host: env.HOST || undefined,
  };
}

function readDemo(file: string): { clientId?: string; clientSecret?: string } | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as { clientId?: string; clientSecret?: string };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`Cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }
}

import { randomBytes } from 'node:crypto';
import { readJsonFile, writePrivateJsonFile } from './json-file';

/** Secrets generated on the first start and reused after, so that encrypted data and keys stay valid. */
export interface LocalSecrets {
  /** SECRETS_KEY: 32 bytes as hex; encrypts client secrets and signing keys at rest. */
  secretsKey: string;
  /** PLATFORM_API_KEY: creates tenants. */
  platformApiKey: string;
  /** Password of the embedded Postgres superuser. */
  postgresPassword: string;
}

const GENERATORS: Record<keyof LocalSecrets, () => string> = {
  secretsKey: () => randomBytes(32).toString('hex'),
  platformApiKey: () => `platform_${randomBytes(32).toString('base64url')}`,
  postgresPassword: () => randomBytes(24).toString('base64url'),
};

/** Reads .data/secrets.json, generating (and saving) whichever secret it does not hold yet. */
export async function loadLocalSecrets(file: string): Promise<{ secrets: LocalSecrets; generated: string[] }> {
  const stored = (await readJsonFile<Partial<LocalSecrets>>(file)) ?? {};
  const secrets = { ...stored } as LocalSecrets;
  const generated: string[] = [];
  for (const [name, generate] of Object.entries(GENERATORS) as [keyof LocalSecrets, () => string][]) {
    if (typeof secrets[name] !== 'string' || secrets[name] === '') {
      secrets[name] = generate();
      generated.push(name);
    }
  }
  if (generated.length > 0) await writePrivateJsonFile(file, secrets);
  return { secrets, generated };
}

import { randomSecret, sha256 } from '@sesame/common';

const API_KEY_PREFIX = 'sk_';
const API_KEY_SHAPE = /^sk_[A-Za-z0-9_-]{43}$/;
/** How many leading characters are stored in clear to tell keys apart. */
const SHOWN_PREFIX_LENGTH = 10;

export interface NewApiKey {
  key: string;
  prefix: string;
  hash: Buffer;
}

/** A new random API key (256 bits); only its hash and a short prefix are stored. */
export function generateApiKey(): NewApiKey {
  const key = randomSecret(API_KEY_PREFIX);
  return { key, prefix: key.slice(0, SHOWN_PREFIX_LENGTH), hash: sha256(key) };
}

export function looksLikeApiKey(value: string): boolean {
  return API_KEY_SHAPE.test(value);
}

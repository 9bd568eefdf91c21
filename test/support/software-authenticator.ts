import { createHash, generateKeyPairSync, KeyObject, randomBytes, sign } from 'node:crypto';

/**
 * A small WebAuthn authenticator for the e2e tests: a P-256 key made with node:crypto,
 * authenticatorData built by hand, the attestation object in CBOR with `fmt: none`. It answers
 * the options Sesame gives, and can be told to lie (another origin or RP ID, no user
 * verification, a sign count of its choosing) to see Sesame refuse.
 */

/** The JSON shapes @simplewebauthn/browser sends (only what the tests need to read or write). */
export interface CreationOptions {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string; displayName: string };
  excludeCredentials?: { id: string }[];
}
export interface RequestOptions {
  challenge: string;
  rpId?: string;
}

export interface StoredCredential {
  id: string;
  privateKey: KeyObject;
  /** The user handle the registration's options named (base64url). */
  userHandle: string;
  rpId: string;
  signCount: number;
}

export interface Lies {
  origin?: string;
  rpId?: string;
  userVerified?: boolean;
  signCount?: number;
  /** Another challenge than the options' (one of another request). */
  challenge?: string;
  userHandle?: string;
  /** Registration: a credential id of this many bytes (WebAuthn allows at most 1023). */
  credentialIdBytes?: number;
  /** Registration: what the answer reports as its transports (anything, to see Sesame keep only known ones). */
  transports?: unknown;
}

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export class SoftwareAuthenticator {
  readonly credentials: StoredCredential[] = [];

  constructor(private readonly origin: string) {}

  /** navigator.credentials.create(): a new discoverable credential, answered as RegistrationResponseJSON. */
  register(options: CreationOptions, lies: Lies = {}): Record<string, unknown> {
    const rpId = lies.rpId ?? options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const credentialId = randomBytes(lies.credentialIdBytes ?? 16);
    const coseKey = cbor(
      new Map<number, unknown>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialId.length);
    const authData = Buffer.concat([
      authenticatorData(rpId, (lies.userVerified === false ? UP : UP | UV) | AT, lies.signCount ?? 0),
      Buffer.alloc(16),
      idLength,
      credentialId,
      coseKey,
    ]);
    const attestationObject = cbor(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    const id = credentialId.toString('base64url');
    this.credentials.push({ id, privateKey, userHandle: options.user.id, rpId, signCount: lies.signCount ?? 0 });
    return {
      id,
      rawId: id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: this.clientData('webauthn.create', lies.challenge ?? options.challenge, lies.origin),
        attestationObject: attestationObject.toString('base64url'),
        transports: 'transports' in lies ? lies.transports : ['internal'],
      },
    };
  }

  /** navigator.credentials.get() with a discoverable credential (the first, or the one given): AuthenticationResponseJSON. */
  authenticate(options: RequestOptions, lies: Lies = {}, credential = this.credentials[0]): Record<string, unknown> {
    if (!credential) throw new Error('The authenticator holds no credential');
    // A made-up count is sent as it is; the authenticator's own only ever grows.
    const signCount = lies.signCount ?? credential.signCount + 1;
    credential.signCount = Math.max(credential.signCount, signCount);
    const rpId = lies.rpId ?? options.rpId ?? credential.rpId;
    const authData = authenticatorData(rpId, lies.userVerified === false ? UP : UP | UV, signCount);
    const clientDataJSON = this.clientData('webauthn.get', lies.challenge ?? options.challenge, lies.origin);
    const signed = Buffer.concat([authData, createHash('sha256').update(Buffer.from(clientDataJSON, 'base64url')).digest()]);
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON,
        authenticatorData: authData.toString('base64url'),
        signature: sign('sha256', signed, credential.privateKey).toString('base64url'),
        userHandle: lies.userHandle ?? credential.userHandle,
      },
    };
  }

  private clientData(type: string, challenge: string, origin = this.origin): string {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false })).toString('base64url');
  }
}

function authenticatorData(rpId: string, flags: number, signCount: number): Buffer {
  const count = Buffer.alloc(4);
  count.writeUInt32BE(signCount);
  return Buffer.concat([createHash('sha256').update(rpId).digest(), Buffer.from([flags]), count]);
}

/** The few CBOR types an attestation object needs (RFC 8949): integers, byte and text strings, maps. */
export function cbor(value: unknown): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Map) return Buffer.concat([head(5, value.size), ...[...value].flatMap(([key, item]) => [cbor(key), cbor(item)])]);
  throw new Error(`cbor: cannot encode ${typeof value}`);
}

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  const bytes = Buffer.alloc(5);
  bytes[0] = (major << 5) | 26;
  bytes.writeUInt32BE(length, 1);
  return bytes;
}

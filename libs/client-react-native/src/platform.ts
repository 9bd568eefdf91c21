/**
 * What the client needs from the JavaScript environment, typed here so that the library depends on
 * neither the DOM nor Node typings (and never on a Node built-in). React Native provides fetch;
 * crypto.getRandomValues and crypto.subtle.digest may need polyfills (see README.md).
 */
export type FetchFunction = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<{ status: number; headers: { get(name: string): string | null }; text(): Promise<string> }>;

export interface CryptoProvider {
  /** Fills the array with cryptographically strong random bytes. */
  getRandomValues(array: Uint8Array): Uint8Array;
  /** SHA-256 of the bytes. */
  sha256(data: Uint8Array): Promise<Uint8Array>;
}

interface WebCryptoLike {
  getRandomValues?(array: Uint8Array): Uint8Array;
  subtle?: { digest(algorithm: string, data: Uint8Array): Promise<ArrayBuffer> };
}

interface GlobalLike {
  fetch?: FetchFunction;
  crypto?: WebCryptoLike;
  setTimeout?(callback: () => void, ms: number): unknown;
}

const host = globalThis as unknown as GlobalLike;

export function globalFetch(): FetchFunction | undefined {
  return host.fetch?.bind(globalThis);
}

/** globalThis.crypto's getRandomValues and subtle.digest; missing parts fail when used, with a hint. */
export function webCrypto(): CryptoProvider {
  return {
    getRandomValues(array) {
      const crypto = host.crypto;
      if (!crypto?.getRandomValues) throw new Error('globalThis.crypto.getRandomValues is missing: install react-native-get-random-values and import it first (see README)');
      return crypto.getRandomValues(array);
    },
    async sha256(data) {
      const subtle = host.crypto?.subtle;
      if (!subtle) throw new Error('globalThis.crypto.subtle is missing: pass options.crypto.sha256 (e.g. with expo-crypto) or install a WebCrypto polyfill (see README)');
      return new Uint8Array(await subtle.digest('SHA-256', data));
    },
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    if (!host.setTimeout) throw new Error('setTimeout is missing');
    host.setTimeout(resolve, ms);
  });
}

/**
 * What the SDKs need from the JavaScript environment, typed here so that this code depends on
 * neither the DOM nor Node typings (and never on a Node built-in): it is compiled into
 * @sesame/client-react-native too. React Native provides fetch, timers and AbortController;
 * crypto.getRandomValues and crypto.subtle.digest may need polyfills there.
 */

/** The init a request is sent with; `redirect` and `signal` are passed only where the platform has them. */
export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  redirect?: 'manual' | 'follow' | 'error';
  signal?: unknown;
}

export interface FetchResponse {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/** The subset of the WHATWG fetch the SDKs use, so that apps and tests can pass their own. */
export type FetchFunction = (url: string, init: FetchInit) => Promise<FetchResponse>;

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

interface AbortControllerLike {
  readonly signal: unknown;
  abort(): void;
}

interface GlobalLike {
  fetch?: FetchFunction;
  crypto?: WebCryptoLike;
  setTimeout?(callback: () => void, ms: number): unknown;
  clearTimeout?(handle: unknown): void;
  AbortController?: new () => AbortControllerLike;
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
      if (!crypto?.getRandomValues)
        throw new Error(
          'globalThis.crypto.getRandomValues is missing: install react-native-get-random-values and import it first (see README)',
        );
      return crypto.getRandomValues(array);
    },
    async sha256(data) {
      const subtle = host.crypto?.subtle;
      if (!subtle)
        throw new Error(
          'globalThis.crypto.subtle is missing: pass options.crypto.sha256 (e.g. with expo-crypto) or install a WebCrypto polyfill (see README)',
        );
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

/** A timer that calls `onTimeout` after `ms` unless cancelled first. */
export function startTimer(ms: number, onTimeout: () => void): { cancel(): void } {
  if (!host.setTimeout) throw new Error('setTimeout is missing');
  const handle = host.setTimeout(onTimeout, ms);
  return { cancel: () => host.clearTimeout?.(handle) };
}

/** An AbortController where the platform has one (fetch then really stops); undefined elsewhere. */
export function abortController(): AbortControllerLike | undefined {
  return host.AbortController ? new host.AbortController() : undefined;
}

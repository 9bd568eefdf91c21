// Encodings without Buffer, btoa, TextEncoder, URL or URLSearchParams (React Native's URL is incomplete).

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** base64url without padding (RFC 4648 §5). */
export function base64url(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a, b, c] = [bytes[i], bytes[i + 1], bytes[i + 2]];
    const triple = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    out += ALPHABET[(triple >> 18) & 63] + ALPHABET[(triple >> 12) & 63];
    if (b !== undefined) out += ALPHABET[(triple >> 6) & 63];
    if (c !== undefined) out += ALPHABET[triple & 63];
  }
  return out;
}

/** The bytes of an ASCII string (PKCE verifiers are ASCII). */
export function asciiBytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 127) throw new Error('not ASCII');
    bytes[i] = code;
  }
  return bytes;
}

/** application/x-www-form-urlencoded (also used for query strings), leaving out undefined values. */
export function formEncode(values: Record<string, string | undefined>): string {
  return Object.keys(values)
    .filter((name) => values[name] !== undefined)
    .map((name) => `${component(name)}=${component(values[name] as string)}`)
    .join('&');
}

function component(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

/** The query parameters of a URL (first value of each name), fragment ignored. */
export function queryOf(url: string): Record<string, string> {
  const withoutFragment = url.split('#')[0];
  const question = withoutFragment.indexOf('?');
  const params: Record<string, string> = {};
  if (question < 0) return params;
  for (const pair of withoutFragment.slice(question + 1).split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = decode(equals < 0 ? pair : pair.slice(0, equals));
    const value = equals < 0 ? '' : decode(pair.slice(equals + 1));
    if (!(name in params)) params[name] = value;
  }
  return params;
}

/** The URL without query and fragment. */
export function withoutQuery(url: string): string {
  return url.split('#')[0].split('?')[0];
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

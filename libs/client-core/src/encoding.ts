// Encodings without Buffer, btoa, TextEncoder, URL or URLSearchParams, which React Native lacks or has incomplete.

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
export function formEncode(form: Record<string, string | undefined>): string {
  return Object.entries(form)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `${formComponent(name)}=${formComponent(value)}`)
    .join('&');
}

/** One name or value, form-encoded (space as +). */
export function formComponent(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

/** One form-encoded name or value, decoded (+ as space); a malformed escape is kept as it is. */
export function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

import { domainToASCII } from 'node:url';
import { validationFailed } from '../problems/problem.exception';

const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}$/;

/**
 * Normalises an e-mail address for storage and comparison: trimmed, IDN domain converted to
 * punycode, the whole address lower-cased. Returns null when the address is not acceptable.
 * The local part is restricted to the RFC 5322 dot-atom set: quoted local parts are rejected.
 */
export function normalizeEmail(input: string): string | null {
  const trimmed = input.trim();
  if (trimmed.length > 254) return null;
  const at = trimmed.lastIndexOf('@');
  if (at <= 0) return null;
  const local = trimmed.slice(0, at);
  const domain = domainToASCII(trimmed.slice(at + 1).toLowerCase());
  if (!LOCAL_PART.test(local) || local.startsWith('.') || local.endsWith('.') || local.includes('..')) return null;
  if (!isDomainName(domain)) return null;
  const address = `${local}@${domain}`.toLowerCase();
  return address.length <= 254 ? address : null;
}

function isDomainName(domain: string): boolean {
  if (domain.length === 0 || domain.length > 253) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  return labels.every((label) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label)) && !/^\d+$/.test(labels.at(-1)!);
}

/** An address from a request field, normalised; a 400 `validation_failed` naming the field when it is not one. */
export function validEmail(input: string, field = 'email'): string {
  const email = normalizeEmail(input);
  if (!email) throw validationFailed([{ field, message: `${field} must be a valid e-mail address` }]);
  return email;
}

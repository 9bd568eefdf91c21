import request, { Response } from 'supertest';

/**
 * What an attacker or a broken client sends to a public endpoint, shared by the hostile-input
 * sweep of npm test (test/ops/hostile-input.e2e-spec.ts) and the hostile-input drill of npm run drills.
 */
export interface HostileInput {
  label: string;
  contentType?: string;
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** Sent as the query string instead of a body. */
  query?: string;
}

export const nestedObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
export const nestedArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const FIELDS = [
  'name',
  'state',
  'email',
  'code',
  'token',
  'key',
  'redirect_uri',
  'redirectUri',
  'client_id',
  'whitelistDomains',
  'plan',
  'role',
];
const withEveryField = (value: string) => JSON.stringify(Object.fromEntries(FIELDS.map((field) => [field, value])));

/** Each is a body with its content type, headers, or a query string. */
export const HOSTILE_INPUTS: HostileInput[] = [
  { label: '2000-level nested object', contentType: 'application/json', body: nestedObject(2000) },
  { label: '10000-level nested array', contentType: 'application/json', body: nestedArray(10000) },
  { label: 'nested object as form field', contentType: 'application/json', body: JSON.stringify({ name: JSON.parse(nestedObject(40)) }) },
  { label: 'NUL in every field', contentType: 'application/json', body: withEveryField('x\u0000y') },
  { label: 'control characters in every field', contentType: 'application/json', body: withEveryField('x\u0001\u001b[31my') },
  { label: 'NUL in a form', contentType: 'application/x-www-form-urlencoded', body: FIELDS.map((field) => `${field}=x%00y`).join('&') },
  { label: 'NUL in a key', contentType: 'application/json', body: '{"na\\u0000me":"x"}' },
  {
    label: 'prototype pollution keys',
    contentType: 'application/json',
    body: '{"__proto__":{"admin":true},"constructor":{"prototype":{"admin":true}},"name":"x"}',
  },
  {
    label: 'nested prototype pollution',
    contentType: 'application/json',
    body: '{"translations":{"__proto__":{"admin":true}},"name":{"constructor":{"prototype":{"a":1}}}}',
  },
  { label: 'malformed JSON', contentType: 'application/json', body: '{"name": "x"' },
  {
    label: 'invalid UTF-8',
    contentType: 'application/json',
    body: Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
  },
  { label: 'a 2 MB body', contentType: 'application/json', body: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }) },
  { label: 'text/plain', contentType: 'text/plain', body: '{"name":"x"}' },
  { label: 'XML', contentType: 'application/xml', body: '<organization><name>x</name></organization>' },
  {
    label: 'multipart',
    contentType: 'multipart/form-data; boundary=b',
    body: '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--b--\r\n',
  },
  { label: 'no content type', body: '{"name":"x"}' },
  { label: 'an unknown charset', contentType: 'application/json; charset=koi8-r', body: '{"name":"x"}' },
  { label: 'a 12 KB header', headers: { 'X-Filler': 'a'.repeat(12 * 1024) } },
  { label: 'a 64 KB header', headers: { 'X-Filler': 'a'.repeat(64 * 1024) } },
  {
    label: 'NUL in the query',
    query:
      '?state=x%00y&cursor=%00&token=%00&limit=%00&email=%01&redirect_uri=%00&client_id=%00&__proto__[a]=1&constructor[prototype][a]=1',
  },
];

/** Sends one hostile request; a refused connection (Node's own 431 for huge headers) is not an answer of the app, so null. */
export async function sendHostile(
  url: string,
  method: string,
  path: string,
  authorization: string,
  hostile: HostileInput,
): Promise<Response | null> {
  const verb = method.toLowerCase() as 'get';
  const agent = request(url);
  const test = agent[verb](`${path}${hostile.query ?? ''}`).set('Authorization', authorization);
  if (hostile.headers) test.set(hostile.headers);
  if (hostile.contentType) test.set('Content-Type', hostile.contentType);
  if (hostile.body !== undefined && method !== 'GET') test.send(hostile.body);
  return test.catch((error: Error & { response?: Response }) => error.response ?? null);
}

/** A stack trace in an error answer: `at fn (file:line)`. */
export const STACK_TRACE = /\n\s+at [\w.<>]+ \(/;

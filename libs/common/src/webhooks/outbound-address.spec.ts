import { LookupAddress } from 'node:dns';
import { addressAllowed, guardedLookup, LookupFunction, webhookUrlProblem } from './outbound-address';

const STRICT = { allowHttpLoopback: false };
const LOCAL = { allowHttpLoopback: true };

describe('addressAllowed', () => {
  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])('allows the public address %s', (address) => {
    expect(addressAllowed(address, STRICT)).toBe(true);
  });

  it.each([
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.10',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    'fd12:3456::1',
    'fe80::1',
    '::',
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
    '::a9fe:a9fe',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b:1::a9fe:a9fe',
    '2002:a9fe:a9fe::1',
    'fec0::1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(addressAllowed(address, STRICT)).toBe(false);
  });

  it('allows loopback only where the setting does', () => {
    expect(addressAllowed('127.0.0.1', STRICT)).toBe(false);
    expect(addressAllowed('::1', STRICT)).toBe(false);
    expect(addressAllowed('127.0.0.1', LOCAL)).toBe(true);
    expect(addressAllowed('::1', LOCAL)).toBe(true);
    expect(addressAllowed('10.0.0.1', LOCAL)).toBe(false);
  });
});

describe('webhookUrlProblem', () => {
  it('accepts https to a name or a public address', () => {
    expect(webhookUrlProblem('https://hooks.example.com/sesame', STRICT)).toBeNull();
    expect(webhookUrlProblem('https://93.184.216.34:8443/x', STRICT)).toBeNull();
  });

  it.each([
    ['http://hooks.example.com/x', 'url must use https'],
    ['http://127.0.0.1:4000/x', 'url must use https'],
    ['https://127.0.0.1/x', 'url must not point to a private, loopback or link-local address'],
    ['https://localhost/x', 'url must not point to a private, loopback or link-local address'],
    ['https://localhost./x', 'url must not point to a private, loopback or link-local address'],
    ['https://localhost.localdomain/x', 'url must not point to a private, loopback or link-local address'],
    ['https://[64:ff9b:1::a9fe:a9fe]/x', 'url must not point to a private, loopback or link-local address'],
    ['https://[fe80::1]/x', 'url must not point to a private, loopback or link-local address'],
    ['https://a:b@hooks.example.com/x', 'url must not contain credentials'],
    ['hooks.example.com/x', 'url must be an absolute URL'],
    ['javascript:alert(1)', 'url must use https'],
  ])('refuses %s', (url, reason) => {
    expect(webhookUrlProblem(url, STRICT)).toBe(reason);
  });

  it('takes plain http to loopback where the setting allows it, and nothing else', () => {
    expect(webhookUrlProblem('http://127.0.0.1:4000/x', LOCAL)).toBeNull();
    expect(webhookUrlProblem('http://localhost:4000/x', LOCAL)).toBeNull();
    expect(webhookUrlProblem('http://hooks.example.com/x', LOCAL)).toBe('url must use https');
    expect(webhookUrlProblem('http://10.0.0.1/x', LOCAL)).toBe('url must use https');
  });
});

describe('guardedLookup (connect time)', () => {
  const resolving =
    (...addresses: string[]): LookupFunction =>
    (_host, _options, callback) =>
      callback(
        null,
        addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })),
      );
  const lookUp = (resolver: LookupFunction, all = false) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
      guardedLookup(STRICT, resolver)('hooks.example.com', { all }, (error, address) => resolve({ error, address })),
    );

  it('connects to a name whose addresses are all public', async () => {
    expect(await lookUp(resolving('93.184.216.34'))).toEqual({ error: null, address: '93.184.216.34' });
    expect((await lookUp(resolving('93.184.216.34', '2606:4700::1'), true)).address).toHaveLength(2);
  });

  it('refuses a name that resolves to a private address (DNS rebinding), even beside a public one', async () => {
    for (const resolver of [resolving('10.0.0.5'), resolving('93.184.216.34', '169.254.169.254'), resolving()]) {
      const { error } = await lookUp(resolver);
      expect(error?.code).toBe('EADDRNOTALLOWED');
    }
  });

  it('passes a resolver error on', async () => {
    const failing: LookupFunction = (_host, _options, callback) =>
      callback(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }), []);
    expect((await lookUp(failing)).error?.code).toBe('ENOTFOUND');
  });
});

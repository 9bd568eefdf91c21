import { hasPlatformKey, presentedKey } from './board-access';

const KEY = 'platform-key-0123456789abcdef0123456789';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('queue dashboard access', () => {
  it.each([
    [`Bearer ${KEY}`, KEY],
    [`bearer ${KEY}`, KEY],
    [basic('admin', KEY), KEY],
    [basic('', KEY), KEY],
    [basic('a', 'b:c'), 'b:c'],
    ['Basic bm9jb2xvbg==', null],
    ['Digest abc', null],
    ['Bearer', null],
    ['', null],
    [undefined, null],
  ])('%j presents %j', (header, key) => {
    expect(presentedKey(header)).toBe(key);
  });

  it('accepts only the platform key', () => {
    expect(hasPlatformKey({ headers: { authorization: `Bearer ${KEY}` } }, KEY)).toBe(true);
    expect(hasPlatformKey({ headers: { authorization: basic('ops', KEY) } }, KEY)).toBe(true);
    expect(hasPlatformKey({ headers: { authorization: `Bearer ${KEY}x` } }, KEY)).toBe(false);
    expect(hasPlatformKey({ headers: { authorization: basic(KEY, 'wrong') } }, KEY)).toBe(false);
    expect(hasPlatformKey({ headers: {} }, KEY)).toBe(false);
  });
});

import { TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  it('answers until the entry expires, then forgets it', () => {
    const cache = new TtlCache<string, number>(10);
    cache.set('a', 1, 1000);
    expect(cache.get('a', 999)).toBe(1);
    expect(cache.get('a', 1000)).toBeUndefined();
    expect(cache.get('a', 0)).toBeUndefined();
  });

  it('drops the oldest entry when full', () => {
    const cache = new TtlCache<string, number>(2);
    cache.set('a', 1, 1000);
    cache.set('b', 2, 1000);
    cache.set('c', 3, 1000);
    expect([cache.get('a', 0), cache.get('b', 0), cache.get('c', 0)]).toEqual([undefined, 2, 3]);
  });

  it('deletes one entry, or every entry that matches', () => {
    const cache = new TtlCache<string, { org: string }>(10);
    cache.set('a', { org: 'x' }, 1000);
    cache.set('b', { org: 'y' }, 1000);
    cache.set('c', { org: 'x' }, 1000);
    cache.delete('b');
    cache.deleteWhere((value) => value.org === 'x');
    expect([cache.get('a', 0), cache.get('b', 0), cache.get('c', 0)]).toEqual([undefined, undefined, undefined]);
  });
});

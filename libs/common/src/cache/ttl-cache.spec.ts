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

  it('does not keep an answer looked up before a delete: it may predate the change the delete was for', () => {
    const cache = new TtlCache<string, number>(10);
    const before = cache.version();
    cache.delete('a');
    cache.set('a', 1, 1000, before);
    expect(cache.get('a', 0)).toBeUndefined();
    const after = cache.version();
    cache.set('a', 2, 1000, after);
    expect(cache.get('a', 0)).toBe(2);
  });

  it('counts a deleteWhere as a delete, whether or not anything matched', () => {
    const cache = new TtlCache<string, number>(10);
    const before = cache.version();
    cache.deleteWhere(() => false);
    cache.set('a', 1, 1000, before);
    expect(cache.get('a', 0)).toBeUndefined();
  });
});

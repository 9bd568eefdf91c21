import { bucketOf, DAY_MS, field, hashKey } from './usage-buckets';

describe('usage buckets', () => {
  const at = (iso: string) => new Date(iso).getTime();

  it('puts an event in the minute and the hour of its UTC day, hash-tagged by tenant', () => {
    const time = at('2033-05-10T10:32:15.500Z');
    expect(bucketOf('sesame', 't1', 'minute', time)).toEqual({
      key: 'sesame:usage:{tenant:t1}:minute:2033-05-10',
      index: 10 * 60 + 32,
      expiresAt: at('2033-05-12T00:00:00.000Z'),
    });
    expect(bucketOf('sesame', 't1', 'hour', time)).toEqual({
      key: 'sesame:usage:{tenant:t1}:hour:2033-05-10',
      index: 10,
      expiresAt: at('2033-05-11T00:00:00.000Z') + 31 * DAY_MS,
    });
  });

  it('the first and last instants of a day stay in that day', () => {
    expect(bucketOf('p', 't', 'minute', at('2033-05-10T00:00:00.000Z')).index).toBe(0);
    expect(bucketOf('p', 't', 'minute', at('2033-05-10T23:59:59.999Z'))).toEqual(
      expect.objectContaining({ key: 'p:usage:{tenant:t}:minute:2033-05-10', index: 1439 }),
    );
    expect(hashKey('p', 't', 'hour', at('2033-05-11T00:00:00.000Z'))).toBe('p:usage:{tenant:t}:hour:2033-05-11');
  });

  it('names fields by metric and index', () => {
    expect(field('mailsFailed', 7)).toBe('mailsFailed:7');
  });
});

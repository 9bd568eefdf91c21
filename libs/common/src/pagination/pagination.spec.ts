import { ProblemException } from '../problems/problem.exception';
import { decodeCursor, encodeCursor, toPage } from './pagination';

const ID = '2d5d5f0e-0f7b-4e84-8a52-39b8bd0e4a0b';
const raw = (text: string) => Buffer.from(text).toString('base64url');

function expectInvalidCursor(cursor: string) {
  let thrown: unknown;
  try {
    decodeCursor(cursor);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ProblemException);
  const problem = thrown as ProblemException;
  expect([problem.status, problem.code, problem.detail]).toEqual([400, 'invalid_cursor', 'cursor is not a cursor this API returned']);
}

describe('cursor encoding', () => {
  it.each([
    new Date('2024-02-29T23:59:59.999Z'),
    new Date('1970-01-01T00:00:00.000Z'),
    new Date('9999-12-31T23:59:59.999Z'),
    new Date('2025-06-01T12:00:00.001Z'),
  ])('round-trips %s', (createdAt) => {
    const cursor = encodeCursor({ createdAt, id: ID });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual({ createdAt, id: ID });
  });

  it('is opaque: no padding, no characters that need URL encoding', () => {
    const cursor = encodeCursor({ createdAt: new Date('2024-01-01T00:00:00.000Z'), id: ID });
    expect(encodeURIComponent(cursor)).toBe(cursor);
  });

  it('no cursor means the first page', () => {
    expect(decodeCursor(undefined)).toBeNull();
  });

  describe('rejects anything the API did not produce, with 400 invalid_cursor', () => {
    it.each([
      ['empty', ''],
      ['garbage', 'garbage'],
      ['not base64url', '!!!###'],
      ['no separator', raw(`2024-01-01T00:00:00.000Z${ID}`)],
      ['no id', raw('2024-01-01T00:00:00.000Z|')],
      ['no date', raw(`|${ID}`)],
      ['a third part', raw(`2024-01-01T00:00:00.000Z|${ID}|x`)],
      ['an id of dashes', raw(`2024-01-01T00:00:00.000Z|${'-'.repeat(36)}`)],
      ['an id in the wrong shape', raw('2024-01-01T00:00:00.000Z|2d5d5f0e0f7b4e848a5239b8bd0e4a0b----')],
      ['an upper-case id', raw(`2024-01-01T00:00:00.000Z|${ID.toUpperCase()}`)],
      ['an id with SQL', raw("2024-01-01T00:00:00.000Z|' OR 1=1 --")],
      ['a date before Postgres can store it', raw(`-271821-04-20T00:00:00.000Z|${ID}`)],
      ['a date after year 9999', raw(`+275760-09-13T00:00:00.000Z|${ID}`)],
      ['a bare number as date', raw(`1|${ID}`)],
      ['a date without time', raw(`2024-01-01|${ID}`)],
      ['a date with an offset', raw(`2024-01-01T00:00:00.000+02:00|${ID}`)],
      ['an impossible date', raw(`2024-02-30T00:00:00.000Z|${ID}`)],
      ['an impossible time', raw(`2024-01-01T24:00:00.000Z|${ID}`)],
      ['an invalid date', raw(`Invalid Date|${ID}`)],
      ['trailing whitespace', raw(`2024-01-01T00:00:00.000Z|${ID} `)],
      ['a trailing newline', raw(`2024-01-01T00:00:00.000Z|${ID}\n`)],
    ])('%s', (_, cursor) => {
      expectInvalidCursor(cursor);
    });
  });
});

describe('toPage', () => {
  const rows = Array.from({ length: 4 }, (_, index) => ({
    createdAt: new Date(Date.UTC(2024, 0, 1, 0, 0, index)),
    id: `00000000-0000-4000-8000-00000000000${index}`,
    secret: 'never shown',
  }));
  const map = (row: (typeof rows)[number]) => ({ id: row.id });

  it('drops the extra row and points the cursor at the last row shown', () => {
    const page = toPage(rows, 3, map);
    expect(page.data).toEqual(rows.slice(0, 3).map(map));
    expect(decodeCursor(page.nextCursor!)).toEqual({ createdAt: rows[2].createdAt, id: rows[2].id });
  });

  it('has no next cursor on the last page', () => {
    expect(toPage(rows, 4, map)).toEqual({ data: rows.map(map), nextCursor: null });
    expect(toPage(rows.slice(0, 2), 3, map)).toEqual({ data: rows.slice(0, 2).map(map), nextCursor: null });
    expect(toPage([], 20, map)).toEqual({ data: [], nextCursor: null });
  });
});

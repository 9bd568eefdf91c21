import { ApprovalNumbers, normalizeApprovalNumber } from './approval-numbers';

describe('ApprovalNumbers', () => {
  const numbers = new ApprovalNumbers(Buffer.alloc(32, 7));
  const tokenHash = Buffer.alloc(32, 1);

  it('draws two-digit numbers from 10 to 99', () => {
    const drawn = new Set(Array.from({ length: 2000 }, () => numbers.draw()));
    for (const value of drawn) expect(Number(value)).toBeGreaterThanOrEqual(10);
    for (const value of drawn) expect(Number(value)).toBeLessThanOrEqual(99);
    expect(drawn.size).toBeGreaterThan(80);
  });

  it('derives the same number from the same browser secret, and other numbers from others', () => {
    expect(numbers.forBrowser('cookie-a')).toBe(numbers.forBrowser('cookie-a'));
    const derived = new Set(Array.from({ length: 500 }, (_, index) => numbers.forBrowser(`cookie-${index}`)));
    expect([...derived].every((value) => /^[1-9]\d$/.test(value))).toBe(true);
    expect(derived.size).toBeGreaterThan(60);
  });

  it('matches only the stored number of the same attempt, and nothing when approval ended', () => {
    const stored = numbers.verifier(tokenHash, '42');
    expect(numbers.matches(tokenHash, '42', stored)).toBe(true);
    expect(numbers.matches(tokenHash, '43', stored)).toBe(false);
    expect(numbers.matches(Buffer.alloc(32, 2), '42', stored)).toBe(false);
    expect(numbers.matches(tokenHash, '42', null)).toBe(false);
    expect(new ApprovalNumbers(Buffer.alloc(32, 8)).matches(tokenHash, '42', stored)).toBe(false);
  });

  it('reads typed numbers strictly', () => {
    expect(normalizeApprovalNumber(' 42 ')).toBe('42');
    for (const typed of ['4', '042', '09', '100', 'ab', '', 42, null, '4 2']) expect(normalizeApprovalNumber(typed)).toBeNull();
  });
});

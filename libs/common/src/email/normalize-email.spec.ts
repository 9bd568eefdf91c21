import { normalizeEmail } from './normalize-email';

describe('normalizeEmail', () => {
  it.each([
    ['ada@example.com', 'ada@example.com'],
    ['  Ada@Example.COM  ', 'ada@example.com'],
    ['ADA@EXAMPLE.COM', 'ada@example.com'],
    ['A@X.COM\r\n', 'a@x.com'],
    ['\tada@example.com', 'ada@example.com'],
    // IDN domains to punycode, whatever their case
    ['ada@bücher.example', 'ada@xn--bcher-kva.example'],
    ['ADA@BÜCHER.EXAMPLE', 'ada@xn--bcher-kva.example'],
    ['ada@xn--bcher-kva.example', 'ada@xn--bcher-kva.example'],
    ['ada@faß.de', 'ada@xn--fa-hia.de'],
    ['ada@ｅｘａｍｐｌｅ.com', 'ada@example.com'],
    // the RFC 5322 dot-atom set is kept as is
    ['first.last+tag@example.com', 'first.last+tag@example.com'],
    ["o'brien@example.com", "o'brien@example.com"],
    ['a!#$%&*/=?^_`{|}~-b@example.com', 'a!#$%&*/=?^_`{|}~-b@example.com'],
    ['x@sub-domain.example.co.uk', 'x@sub-domain.example.co.uk'],
    ['x@123.example', 'x@123.example'],
  ])('%j → %s', (input, expected) => {
    expect(normalizeEmail(input)).toBe(expected);
  });

  it('gives one value for every spelling of one address', () => {
    const spellings = ['Ada@Bücher.Example', ' ada@xn--bcher-kva.example', 'ADA@BÜCHER.EXAMPLE\n'];
    expect(new Set(spellings.map(normalizeEmail))).toEqual(new Set(['ada@xn--bcher-kva.example']));
  });

  it.each([
    ['', 'empty'],
    ['   ', 'blank'],
    ['ada', 'no @'],
    ['@example.com', 'no local part'],
    ['ada@', 'no domain'],
    ['ada@example', 'single-label domain'],
    ['ada@localhost', 'single-label domain'],
    ['ada@example.com.', 'trailing dot'],
    ['ada@.example.com', 'leading dot in domain'],
    ['ada@example..com', 'empty label'],
    ['ada@-example.com', 'label starts with hyphen'],
    ['ada@example-.com', 'label ends with hyphen'],
    ['ada@exa_mple.com', 'underscore in domain'],
    ['ada@1.2.3.4', 'IP address'],
    ['ada@[127.0.0.1]', 'address literal'],
    ['ada@[IPv6:::1]', 'address literal'],
    ['.ada@example.com', 'leading dot in local part'],
    ['ada.@example.com', 'trailing dot in local part'],
    ['a..da@example.com', 'double dot in local part'],
    ['"ada lovelace"@example.com', 'quoted local part'],
    ['"a@b"@example.com', 'quoted local part with @'],
    ['a da@example.com', 'space in local part'],
    ['ada@exa mple.com', 'space in domain'],
    ['ada@b@example.com', 'two @'],
    ['ada＠example.com', 'full-width @'],
    ['ädä@example.com', 'non-ASCII local part'],
    ['ada(comment)@example.com', 'comment'],
    ['ada@example.com\nBcc: eve@evil.com', 'header injection'],
    ['ada@example.com,eve@evil.com', 'list of addresses'],
    ['ada@example.com>', 'angle bracket'],
    ['<ada@example.com>', 'angle brackets'],
    ['Ada <ada@example.com>', 'display name'],
    ['ada\\@example.com', 'backslash'],
    ['ada\u0000@example.com', 'NUL'],
    ['ada@example.com\u0000', 'NUL in domain'],
    [`${'a'.repeat(65)}@example.com`, 'local part over 64 characters'],
    [`ada@${'a'.repeat(64)}.com`, 'label over 63 characters'],
    [`ada@${Array.from({ length: 26 }, () => 'abcdefghi').join('.')}.com`, 'address over 254 characters'],
  ])('rejects %j (%s)', (input) => {
    expect(normalizeEmail(input)).toBeNull();
  });

  it('accepts the longest local part and label', () => {
    expect(normalizeEmail(`${'a'.repeat(64)}@${'b'.repeat(63)}.com`)).toBe(`${'a'.repeat(64)}@${'b'.repeat(63)}.com`);
  });

  it('limits the whole address to 254 characters', () => {
    const domain = `${Array.from({ length: 3 }, () => 'd'.repeat(63)).join('.')}.${'e'.repeat(188 - 3 * 64 + 59)}`;
    const at254 = `${'a'.repeat(254 - domain.length - 1)}@${domain}`;
    expect(at254).toHaveLength(254);
    expect(normalizeEmail(at254)).toBe(at254);
    expect(normalizeEmail(`a${at254}`)).toBeNull();
  });

  it('limits the address after punycode conversion too', () => {
    // 60 "ü" become a 68-character A-label: valid before conversion, too long after it
    expect(normalizeEmail(`ada@${'ü'.repeat(60)}.example`)).toBeNull();
  });
});

import { basicAuthorization } from './credentials';

describe('basicAuthorization', () => {
  it('form-encodes id and secret before base64 (RFC 6749 §2.3.1)', () => {
    expect(basicAuthorization('id', 'se:cret')).toBe(`Basic ${Buffer.from('id:se%3Acret').toString('base64')}`);
    expect(basicAuthorization('a b', 'ü')).toBe(`Basic ${Buffer.from('a+b:%C3%BC').toString('base64')}`);
  });
});

import { Logger } from '@nestjs/common';
import { SqlLogger } from './sql-logger';

describe('SqlLogger', () => {
  it('logs a failed statement without its parameters', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    new SqlLogger().logQueryError(new Error('invalid byte sequence'), 'INSERT INTO login_attempt (email, token_hash)\n   VALUES ($1, $2)', [
      'ada@example.com',
      'c2VjcmV0',
    ]);
    expect(warn.mock.calls).toEqual([
      ['Query failed: invalid byte sequence (INSERT INTO login_attempt (email, token_hash) VALUES ($1, $2))'],
    ]);
    warn.mockRestore();
  });
});

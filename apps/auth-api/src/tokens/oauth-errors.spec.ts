import { ProblemException } from '@sesame/common';
import { ExecutionContext } from '@nestjs/common';
import { FormBodyGuard } from '../oauth/form-body.guard';
import { invalidGrant, invalidToken } from './oauth-errors';

describe('oauth errors', () => {
  it('invalid_grant is a 400', () => {
    expect(invalidGrant('why')).toMatchObject({ status: 400, code: 'invalid_grant', detail: 'why' });
  });

  it('a missing token gets a bare Bearer challenge (RFC 6750 §3.1), a bad one says why', () => {
    expect(invalidToken(null).headers).toEqual({ 'WWW-Authenticate': 'Bearer realm="sesame"' });
    const bad = invalidToken('expired');
    expect(bad).toMatchObject({ status: 401, code: 'invalid_token' });
    expect(bad.headers['WWW-Authenticate']).toBe('Bearer realm="sesame", error="invalid_token", error_description="expired"');
  });

  it.each([
    ['application/x-www-form-urlencoded', true],
    ['application/x-www-form-urlencoded; charset=UTF-8', true],
    ['Application/X-WWW-Form-Urlencoded', true],
    ['application/json', false],
    ['multipart/form-data; boundary=x', false],
    [undefined, false],
  ])('FormBodyGuard with Content-Type %j accepts: %s', (contentType, accepted) => {
    const context = {
      switchToHttp: () => ({ getRequest: () => ({ headers: { 'content-type': contentType } }) }),
    } as unknown as ExecutionContext;
    const call = () => new FormBodyGuard().canActivate(context);
    if (accepted) expect(call).not.toThrow();
    else expect(call).toThrow(expect.objectContaining({ code: 'invalid_request', status: 400 }) as ProblemException);
  });
});

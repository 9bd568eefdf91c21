import { problem, ProblemException } from '@sesame/common';

export const invalidGrant = (detail: string) => problem('invalid_grant', detail);

/** RFC 6750 §3: a missing token gets a bare challenge; a bad one says why. */
export function invalidToken(detail: string | null): ProblemException {
  const challenge =
    detail === null ? 'Bearer realm="sesame"' : `Bearer realm="sesame", error="invalid_token", error_description="${detail}"`;
  return problem('invalid_token', detail ?? 'An access token is required', {
    headers: { 'WWW-Authenticate': challenge },
  });
}

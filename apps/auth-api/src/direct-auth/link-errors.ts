import { ProblemException } from '@sesame/common';

/** A login link (or autologin continuation) that was never issued, or no longer exists: an error page, no redirect. */
export function unknownLink(detail = 'This login link is not valid'): ProblemException {
  return new ProblemException(404, 'unknown_login_link', detail);
}

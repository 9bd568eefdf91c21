import { problem, ProblemException } from '@sesame/common';

/** A login link (or autologin continuation) that was never issued, or no longer exists: an error page, no redirect. */
export function unknownLink(detail = 'This login link is not valid'): ProblemException {
  return problem('unknown_login_link', detail);
}

import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { problem } from '@sesame/common';

/**
 * The token endpoints take application/x-www-form-urlencoded only (RFC 6749 §3.2). Checked first,
 * before client authentication and the endpoint limit, so another body is refused without
 * looking up the client or charging the tenant.
 */
@Injectable()
export class FormBodyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (!isFormBody(context)) throw problem('invalid_request', 'The request body must be application/x-www-form-urlencoded');
    return true;
  }
}

/** Whether the request says its body is form-encoded. */
export function isFormBody(context: ExecutionContext): boolean {
  const contentType = context.switchToHttp().getRequest<{ headers: Record<string, string | string[] | undefined> }>().headers[
    'content-type'
  ];
  return typeof contentType === 'string' && contentType.toLowerCase().startsWith('application/x-www-form-urlencoded');
}

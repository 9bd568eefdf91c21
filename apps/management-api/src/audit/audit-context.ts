import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { requestIdOf } from '@sesame/common';
import { Principal, RequestWithPrincipal } from '@sesame/guards';
import { clientIp } from '@sesame/throttler';

/** Who makes a request and from where: what every audit event of the request records. */
export interface AuditContext {
  principal: Principal;
  ip: string | null;
  requestId: string | null;
}

export function auditContextOf(request: RequestWithPrincipal & { ip?: string }): AuditContext {
  return { principal: request.principal!, ip: clientIp(request), requestId: requestIdOf(request) };
}

/** The request's audit context, for services that record events of their own (changes a change brings along). */
export const CurrentAuditContext = createParamDecorator((_: unknown, context: ExecutionContext): AuditContext =>
  auditContextOf(context.switchToHttp().getRequest()),
);

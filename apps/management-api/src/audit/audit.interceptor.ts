import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { requestIdOf } from '@sesame/common';
import { RequestWithPrincipal } from '@sesame/guards';
import { clientIp } from '@sesame/throttler';
import { mergeMap, Observable } from 'rxjs';
import { AuditService } from './audit.service';
import { AUDITED, AuditSpec } from './audited.decorator';

type AuditedRequest = RequestWithPrincipal & { params?: Record<string, string>; body?: unknown; ip?: string };

/** Writes the audit event of every successful call of an @Audited route, before the answer goes out. */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly audit: AuditService,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const spec = this.reflector.get<AuditSpec | undefined>(AUDITED, context.getHandler());
    if (!spec) return next.handle();
    const request = context.switchToHttp().getRequest<AuditedRequest>();
    return next.handle().pipe(
      mergeMap(async (answer: unknown) => {
        const principal = request.principal!;
        const targetId = spec.targetId(request.params ?? {}, answer);
        // A tenant's own events belong to it; the platform key's changes of a tenant go to that tenant.
        const tenantId = principal.kind === 'platform' ? targetId : principal.tenantId;
        if (tenantId) {
          await this.audit.record({ spec, principal, tenantId, targetId, body: request.body, ip: clientIp(request), requestId: requestIdOf(request) });
        }
        return answer;
      }),
    );
  }
}

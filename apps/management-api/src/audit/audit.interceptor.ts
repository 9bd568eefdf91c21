import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { RequestWithPrincipal } from '@sesame/guards';
import { mergeMap, Observable } from 'rxjs';
import { includesSecret } from '../access/access.decorator';
import { auditContextOf } from './audit-context';
import { AuditService, withoutSecrets } from './audit.service';
import { AUDITED, AuditSpec } from './audit-spec';

type AuditedRequest = RequestWithPrincipal & {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
  ip?: string;
};

/** Writes the audit event of every successful call of an @Audited route, before the answer goes out. */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly audit: AuditService,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const spec = this.reflector.get<AuditSpec | undefined>(AUDITED, context.getHandler());
    const request = context.switchToHttp().getRequest<AuditedRequest>();
    if (!spec || (spec.when === 'includeSecret' && !includesSecret(request.query))) return next.handle();
    return next.handle().pipe(
      mergeMap(async (answer: unknown) => {
        const audit = auditContextOf(request);
        const targetId = spec.targetId(request.params ?? {}, answer);
        // A tenant's own events belong to it; the platform key's changes of a tenant go to that tenant.
        const tenantId = audit.principal.kind === 'platform' ? targetId : audit.principal.tenantId;
        if (tenantId)
          await this.audit.record(audit, {
            tenantId,
            action: spec.action,
            targetType: spec.targetType,
            targetId,
            changes: withoutSecrets(request.body),
          });
        return answer;
      }),
    );
  }
}

import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { AuditInterceptor } from './audit.interceptor';
import { AUDITED, AuditSpec } from './audit-spec';

/**
 * Every successful call of the route writes an audit event (AuditInterceptor); every mutating route
 * has one, and so does every read of a secret. The interceptor is the route's own, not global: the
 * reads that are not audited go without an interceptor pipeline.
 */
export const Audited = (action: string, targetId: AuditSpec['targetId'], options: Pick<AuditSpec, 'when'> = {}) =>
  applyDecorators(
    SetMetadata<string, AuditSpec>(AUDITED, { action, targetType: action.split('.')[0], targetId, ...options }),
    UseInterceptors(AuditInterceptor),
  );

/** The target id is the path parameter of this name. */
export const fromParam = (name: string) => (params: Record<string, string>) => params[name] ?? null;

/** The target id is the `id` of the answer (a created object). */
export const fromAnswer = (_params: Record<string, string>, answer: unknown) => (answer as { id?: string } | undefined)?.id ?? null;

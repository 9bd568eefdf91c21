import { SetMetadata } from '@nestjs/common';

/** What a mutating route changes, for its audit event. */
export interface AuditSpec {
  /** `<target type>.<verb>`, e.g. `organization.update`. */
  action: string;
  targetType: string;
  /** The changed object's id: from the path parameters, or from the answer for what the route creates. */
  targetId: (params: Record<string, string>, answer: unknown) => string | null;
  /** Only requests that ask for a secret (`?include=secret`) are recorded: a read made on purpose. */
  when?: 'includeSecret';
}

export const AUDITED = 'sesame:audited';

/** Every successful call of the route writes an audit event (AuditInterceptor); every mutating route has one, and so does every read of a secret. */
export const Audited = (action: string, targetId: AuditSpec['targetId'], options: Pick<AuditSpec, 'when'> = {}) =>
  SetMetadata<string, AuditSpec>(AUDITED, { action, targetType: action.split('.')[0], targetId, ...options });

/** The target id is the path parameter of this name. */
export const fromParam = (name: string) => (params: Record<string, string>) => params[name] ?? null;

/** The target id is the `id` of the answer (a created object). */
export const fromAnswer = (_params: Record<string, string>, answer: unknown) => (answer as { id?: string } | undefined)?.id ?? null;

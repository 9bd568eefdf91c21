import { SetMetadata } from '@nestjs/common';

/** What a mutating route changes, for its audit event. */
export interface AuditSpec {
  /** `<target type>.<verb>`, e.g. `organization.update`. */
  action: string;
  targetType: string;
  /** The changed object's id: from the path parameters, or from the answer for what the route creates. */
  targetId: (params: Record<string, string>, answer: unknown) => string | null;
}

export const AUDITED = 'sesame:audited';

/** Every successful call of the route writes an audit event (AuditInterceptor); every mutating route has one. */
export const Audited = (action: string, targetId: AuditSpec['targetId']) => SetMetadata<string, AuditSpec>(AUDITED, { action, targetType: action.split('.')[0], targetId });

/** The target id is the path parameter of this name. */
export const fromParam = (name: string) => (params: Record<string, string>) => params[name] ?? null;

/** The target id is the `id` of the answer (a created object). */
export const fromAnswer = (_params: Record<string, string>, answer: unknown) => (answer as { id?: string } | undefined)?.id ?? null;

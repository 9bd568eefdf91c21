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

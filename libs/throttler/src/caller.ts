import { Plan } from '@sesame/common';
import { ClientPrincipal, Principal, SignedInPerson } from '@sesame/guards';

export interface ThrottledRequest {
  headers: Record<string, string | string[] | undefined>;
  ip?: string;
  socket?: { remoteAddress?: string };
  principal?: Principal;
  person?: SignedInPerson;
  client?: ClientPrincipal;
}

export interface CallerTenant {
  tenantId: string;
  plan: Plan;
}

/**
 * The tenant whose plan budget an API key (request.principal) draws on; none for the platform key,
 * and none for console members, who have a limit of their own (memberTracker).
 */
export function principalTenant(request: ThrottledRequest): CallerTenant | null {
  const principal = request.principal;
  return principal?.kind === 'tenant' || principal?.kind === 'organization' ? { tenantId: principal.tenantId, plan: principal.plan } : null;
}

/** The bucket of a console member's own limit: per member, or per signed-in person on routes without a tenant; null for API keys. */
export function memberTracker(request: ThrottledRequest): string | null {
  if (request.principal?.kind === 'member') return `member:${request.principal.memberId}`;
  return request.person ? `person:${request.person.userId}` : null;
}

/** The tenant of the authenticated client application (request.client), else of the API key. */
export function callerTenant(request: ThrottledRequest): CallerTenant | null {
  // Until ClientAuthGuard sets it, Express's `request.client` is Node's alias of the socket.
  const client = request.client as Partial<ClientPrincipal> | undefined;
  return typeof client?.tenantId === 'string' && typeof client.plan === 'string'
    ? { tenantId: client.tenantId, plan: client.plan }
    : principalTenant(request);
}

/**
 * True when the caller is a public client (a native app, identified by client_id alone): anyone
 * who knows its client_id can send requests in its name, so they must not spend its tenant's budget.
 */
export function isPublicClient(request: ThrottledRequest): boolean {
  const client = request.client as Partial<ClientPrincipal> | undefined;
  return typeof client?.tenantId === 'string' && client.method === 'none';
}

import { Role, roleIncludes } from '@sesame/common';
import { ACCESS_EXTENSION, AccessRule } from './access.decorator';

/** The parts of the management API's OpenAPI document the access matrix is read from. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
}

interface OpenApiOperation {
  security?: Record<string, string[]>[];
  [ACCESS_EXTENSION]?: AccessRule;
}

/** Who may call a route: anyone (@Public), any signed-in person (@PersonRoute), or its @Access rule. */
export type RouteAccess = { kind: 'public' } | { kind: 'person' } | { kind: 'rule'; rule: AccessRule };

/** One row of the matrix: an operation, or the secret-reading variant of one (`?include=secret`). */
export interface AccessRow {
  method: string;
  path: string;
  /** `include=secret` on the row of a secret read. */
  query?: string;
  access: RouteAccess;
}

/** A caller of the management API, as far as access depends on it. */
export interface Caller {
  kind: 'platform' | 'tenant' | 'organization' | 'member';
  /** Every caller but the platform key has one. */
  role?: Role;
  /**
   * Where the caller belongs, against what the route's path names: its own tenant and (organization
   * keys) organization, a sibling organization of the same tenant, or another tenant. Default: own.
   */
  reach?: 'own' | 'otherOrganization' | 'otherTenant';
  /** Members: signed in within MEMBER_REAUTH_SECONDS. Default: yes. */
  recentSignIn?: boolean;
}

export interface Refusal {
  status: 403 | 404;
  code: string;
}

/** What a caller gets from a route: through (to the handler), or AccessGuard's refusal. */
export type Outcome = 'allowed' | Refusal;

/** The columns of the matrix: every kind of key and member, in their own tenant and organization. */
export const MATRIX_CALLERS: { heading: string; caller: Caller }[] = [
  { heading: 'platform key', caller: { kind: 'platform' } },
  { heading: 'tenant key owner', caller: { kind: 'tenant', role: 'owner' } },
  { heading: 'tenant key admin', caller: { kind: 'tenant', role: 'admin' } },
  { heading: 'tenant key viewer', caller: { kind: 'tenant', role: 'viewer' } },
  { heading: 'organization key admin', caller: { kind: 'organization', role: 'admin' } },
  { heading: 'organization key viewer', caller: { kind: 'organization', role: 'viewer' } },
  { heading: 'member owner', caller: { kind: 'member', role: 'owner' } },
  { heading: 'member admin', caller: { kind: 'member', role: 'admin' } },
  { heading: 'member viewer', caller: { kind: 'member', role: 'viewer' } },
];

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const SECRET_QUERY = 'include=secret';

/**
 * Every operation of the document with who may call it, in path order, each secret read followed by
 * its `?include=secret` row. An operation without an `x-sesame-access` rule must be public (no
 * security requirement) or the person route (member tokens only); anything else is an error.
 */
export function accessRows(document: OpenApiDocument): AccessRow[] {
  const rows: AccessRow[] = [];
  for (const path of Object.keys(document.paths).sort()) {
    const item = document.paths[path];
    for (const method of METHODS.filter((name) => name in item)) {
      const route = `${method.toUpperCase()} ${path}`;
      const access = routeAccess(route, item[method] as OpenApiOperation);
      rows.push({ method: method.toUpperCase(), path, access });
      if (access.kind === 'rule' && access.rule.includeSecret)
        rows.push({ method: method.toUpperCase(), path, query: SECRET_QUERY, access: secretAccess(access.rule) });
    }
  }
  return rows;
}

function routeAccess(route: string, operation: OpenApiOperation): RouteAccess {
  const rule = operation[ACCESS_EXTENSION];
  if (rule) return { kind: 'rule', rule };
  const security = operation.security ?? [];
  if (security.length === 0) return { kind: 'public' };
  if (security.length === 1 && Object.keys(security[0]).join() === 'member') return { kind: 'person' };
  throw new Error(`${route} has no ${ACCESS_EXTENSION} rule: give it @Access(), or mark it @Public() or @PersonRoute()`);
}

/** The rule of a request with `?include=secret`: the route's, with the stricter role and sign-in it names. */
function secretAccess({ includeSecret, ...rule }: AccessRule): RouteAccess {
  return { kind: 'rule', rule: { ...rule, role: includeSecret!.role, freshSignIn: includeSecret!.freshSignIn } };
}

/** What the caller gets, checked in AccessGuard's order: kind of caller, role, recent sign-in, then reach (404). */
export function outcome(access: RouteAccess, caller: Caller): Outcome {
  if (access.kind === 'public') return 'allowed';
  if (access.kind === 'person') return caller.kind === 'member' ? 'allowed' : { status: 403, code: 'member_token_required' };
  const { rule } = access;
  if (caller.kind === 'platform') return rule.platform ? 'allowed' : { status: 403, code: 'tenant_key_required' };
  if (!rule.role) return { status: 403, code: 'platform_key_required' };
  if (caller.kind === 'organization' && !rule.organization && !rule.organizationKeys) return { status: 403, code: 'tenant_key_required' };
  if (!roleIncludes(caller.role!, rule.role)) return { status: 403, code: 'insufficient_role' };
  if (rule.freshSignIn && caller.kind === 'member' && caller.recentSignIn === false)
    return { status: 403, code: 'reauthentication_required' };
  const reach = caller.reach ?? 'own';
  if (rule.tenant && reach === 'otherTenant') return { status: 404, code: 'not_found' };
  if (rule.organization && reach !== 'own') return { status: 404, code: 'not_found' };
  return 'allowed';
}

/** The access matrix as a Markdown table: a row per route, a column per caller of MATRIX_CALLERS. */
export function renderAccessMatrix(document: OpenApiDocument): string {
  const lines = [
    `| route | ${MATRIX_CALLERS.map((column) => column.heading).join(' | ')} |`,
    `|---|${MATRIX_CALLERS.map(() => '---|').join('')}`,
  ];
  for (const row of accessRows(document)) {
    const route = `\`${row.method} ${row.path}${row.query ? `?${row.query}` : ''}\``;
    lines.push(`| ${route} | ${MATRIX_CALLERS.map(({ caller }) => cell(row.access, caller)).join(' | ')} |`);
  }
  return `${lines.join('\n')}\n`;
}

function cell(access: RouteAccess, caller: Caller): string {
  const recent = outcome(access, { ...caller, recentSignIn: true });
  if (recent === 'allowed')
    return outcome(access, { ...caller, recentSignIn: false }) === 'allowed' ? 'allowed' : 'allowed, recent sign-in';
  return recent.status === 404 ? '404' : `403 \`${recent.code}\``;
}

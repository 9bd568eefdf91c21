import { AccessRule } from './access.decorator';
import { accessRows, Caller, outcome, renderAccessMatrix } from './access-matrix';

const KEYED = [{ apiKey: [] }, { member: [], sesameTenant: [] }];
const ruled = (rule: AccessRule) => ({ 'x-sesame-access': rule, security: KEYED });
const rule = (value: AccessRule) => ({ kind: 'rule' as const, rule: value });

const DOCUMENT = {
  paths: {
    '/api/v2/thing/{organizationId}': {
      parameters: [],
      delete: ruled({ role: 'admin', organization: 'organizationId', freshSignIn: true }),
      get: ruled({ role: 'viewer', organization: 'organizationId', includeSecret: { role: 'admin', freshSignIn: true } }),
    },
    '/api/v2/me': { get: { security: [{ member: [] }] } },
    '/api/health': { get: {} },
    '/api/v2/tenant': { post: ruled({ platform: true }) },
  },
};

describe('access matrix', () => {
  describe('outcome, in the guard’s order', () => {
    const admin: Caller = { kind: 'tenant', role: 'admin' };

    it.each<[string, AccessRule, Caller, ReturnType<typeof outcome>]>([
      ['the platform key where the rule admits it', { platform: true, role: 'admin', tenant: 'tenantId' }, { kind: 'platform' }, 'allowed'],
      ['the platform key elsewhere', { role: 'viewer' }, { kind: 'platform' }, { status: 403, code: 'tenant_key_required' }],
      [
        'a key on a platform-only route',
        { platform: true },
        { kind: 'tenant', role: 'owner' },
        { status: 403, code: 'platform_key_required' },
      ],
      [
        'a member on a platform-only route',
        { platform: true },
        { kind: 'member', role: 'owner' },
        { status: 403, code: 'platform_key_required' },
      ],
      [
        'an organization key on a tenant route',
        { role: 'viewer' },
        { kind: 'organization', role: 'admin' },
        { status: 403, code: 'tenant_key_required' },
      ],
      [
        'an organization key where organization keys may call',
        { role: 'viewer', organizationKeys: true },
        { kind: 'organization', role: 'viewer' },
        'allowed',
      ],
      [
        'an organization key in its organization',
        { role: 'admin', organization: 'id' },
        { kind: 'organization', role: 'admin' },
        'allowed',
      ],
      ['a weaker role', { role: 'owner' }, admin, { status: 403, code: 'insufficient_role' }],
      [
        'the role before the kind of sign-in',
        { role: 'owner', freshSignIn: true },
        { kind: 'member', role: 'admin', recentSignIn: false },
        { status: 403, code: 'insufficient_role' },
      ],
      [
        'a member signed in long ago',
        { role: 'admin', freshSignIn: true },
        { kind: 'member', role: 'admin', recentSignIn: false },
        { status: 403, code: 'reauthentication_required' },
      ],
      [
        'a member signed in recently',
        { role: 'admin', freshSignIn: true },
        { kind: 'member', role: 'admin', recentSignIn: true },
        'allowed',
      ],
      ['a key, however old its sign-in', { role: 'admin', freshSignIn: true }, { ...admin, recentSignIn: false }, 'allowed'],
      [
        'a member signed in long ago where no recent sign-in is needed',
        { role: 'viewer' },
        { kind: 'member', role: 'viewer', recentSignIn: false },
        'allowed',
      ],
      [
        'another tenant’s caller on a tenant’s path',
        { role: 'viewer', tenant: 'tenantId' },
        { ...admin, reach: 'otherTenant' },
        { status: 404, code: 'not_found' },
      ],
      ['another tenant’s caller on its own kind of list', { role: 'viewer' }, { ...admin, reach: 'otherTenant' }, 'allowed'],
      [
        'a sibling organization’s key',
        { role: 'viewer', organization: 'id' },
        { kind: 'organization', role: 'viewer', reach: 'otherOrganization' },
        { status: 404, code: 'not_found' },
      ],
      [
        'a sibling organization’s key on its tenant',
        { role: 'viewer', tenant: 'tenantId', organizationKeys: true },
        { kind: 'organization', role: 'viewer', reach: 'otherOrganization' },
        'allowed',
      ],
      [
        'the role before the reach',
        { role: 'admin', organization: 'id' },
        { kind: 'organization', role: 'viewer', reach: 'otherOrganization' },
        { status: 403, code: 'insufficient_role' },
      ],
      [
        'a stale sign-in before the reach',
        { role: 'admin', organization: 'id', freshSignIn: true },
        { kind: 'member', role: 'admin', reach: 'otherTenant', recentSignIn: false },
        { status: 403, code: 'reauthentication_required' },
      ],
    ])('%s', (_, value, caller, expected) => {
      expect(outcome(rule(value), caller)).toEqual(expected);
    });

    it('public routes admit everyone; the person route admits members only', () => {
      expect(outcome({ kind: 'public' }, { kind: 'platform' })).toBe('allowed');
      expect(outcome({ kind: 'person' }, { kind: 'member', role: 'viewer', reach: 'otherTenant' })).toBe('allowed');
      expect(outcome({ kind: 'person' }, { kind: 'tenant', role: 'owner' })).toEqual({ status: 403, code: 'member_token_required' });
      expect(outcome({ kind: 'person' }, { kind: 'platform' })).toEqual({ status: 403, code: 'member_token_required' });
    });
  });

  it('reads a row per operation in path order, and a row for each secret read', () => {
    expect(accessRows(DOCUMENT).map((row) => [`${row.method} ${row.path}${row.query ? `?${row.query}` : ''}`, row.access])).toEqual([
      ['GET /api/health', { kind: 'public' }],
      ['GET /api/v2/me', { kind: 'person' }],
      ['POST /api/v2/tenant', rule({ platform: true })],
      [
        'GET /api/v2/thing/{organizationId}',
        rule({ role: 'viewer', organization: 'organizationId', includeSecret: { role: 'admin', freshSignIn: true } }),
      ],
      ['GET /api/v2/thing/{organizationId}?include=secret', rule({ role: 'admin', organization: 'organizationId', freshSignIn: true })],
      ['DELETE /api/v2/thing/{organizationId}', rule({ role: 'admin', organization: 'organizationId', freshSignIn: true })],
    ]);
  });

  it('refuses a keyed operation without a rule', () => {
    expect(() => accessRows({ paths: { '/api/v2/thing': { post: { security: KEYED } } } })).toThrow(
      'POST /api/v2/thing has no x-sesame-access rule: give it @Access(), or mark it @Public() or @PersonRoute()',
    );
  });

  it('renders a Markdown table: a route per row, a caller per column', () => {
    expect(renderAccessMatrix(DOCUMENT).split('\n')).toEqual([
      '| route | platform key | tenant key owner | tenant key admin | tenant key viewer | organization key admin | organization key viewer | member owner | member admin | member viewer |',
      '|---|---|---|---|---|---|---|---|---|---|',
      '| `GET /api/health` | allowed | allowed | allowed | allowed | allowed | allowed | allowed | allowed | allowed |',
      '| `GET /api/v2/me` | 403 `member_token_required` | 403 `member_token_required` | 403 `member_token_required` | 403 `member_token_required` | 403 `member_token_required` | 403 `member_token_required` | allowed | allowed | allowed |',
      '| `POST /api/v2/tenant` | allowed | 403 `platform_key_required` | 403 `platform_key_required` | 403 `platform_key_required` | 403 `platform_key_required` | 403 `platform_key_required` | 403 `platform_key_required` | 403 `platform_key_required` | 403 `platform_key_required` |',
      '| `GET /api/v2/thing/{organizationId}` | 403 `tenant_key_required` | allowed | allowed | allowed | allowed | allowed | allowed | allowed | allowed |',
      '| `GET /api/v2/thing/{organizationId}?include=secret` | 403 `tenant_key_required` | allowed | allowed | 403 `insufficient_role` | allowed | 403 `insufficient_role` | allowed, recent sign-in | allowed, recent sign-in | 403 `insufficient_role` |',
      '| `DELETE /api/v2/thing/{organizationId}` | 403 `tenant_key_required` | allowed | allowed | 403 `insufficient_role` | allowed | 403 `insufficient_role` | allowed, recent sign-in | allowed, recent sign-in | 403 `insufficient_role` |',
      '',
    ]);
  });
});

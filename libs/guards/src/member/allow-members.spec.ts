import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { MemberRole, ProblemException } from '@sesame/common';
import { Principal } from '../api-key/principal';
import { AllowMembers, MemberRoleGuard } from './allow-members';

class Routes {
  @AllowMembers('viewer') read() {}
  @AllowMembers('admin') change() {}
  @AllowMembers('owner') manageMembers() {}
  keysOnly() {}
}

const member = (role: MemberRole): Principal => ({ kind: 'member', tenantId: 't', plan: 'pro', memberId: 'm', email: 'ada@example.com', role });
const key: Principal = { kind: 'tenant', tenantId: 't', plan: 'pro', apiKeyId: 'k', apiKeyName: 'CI' };

function outcome(route: keyof Routes, principal: Principal | undefined): true | string {
  const context = { getHandler: () => Routes.prototype[route], getClass: () => Routes, switchToHttp: () => ({ getRequest: () => ({ principal }) }) } as unknown as ExecutionContext;
  try {
    return new MemberRoleGuard(new Reflector()).canActivate(context) as true;
  } catch (error) {
    return `${(error as ProblemException).status} ${(error as ProblemException).code}`;
  }
}

describe('MemberRoleGuard', () => {
  it.each([
    ['read', 'viewer', true],
    ['read', 'owner', true],
    ['change', 'viewer', '403 insufficient_role'],
    ['change', 'admin', true],
    ['manageMembers', 'admin', '403 insufficient_role'],
    ['manageMembers', 'owner', true],
    ['keysOnly', 'owner', '403 member_not_allowed'],
  ] as const)('%s as %s: %s', (route, role, expected) => {
    expect(outcome(route, member(role))).toEqual(expected);
  });

  it('leaves API keys and routes without a principal to their own rules', () => {
    expect(outcome('keysOnly', key)).toBe(true);
    expect(outcome('manageMembers', undefined)).toBe(true);
  });

  it('says which role is needed', () => {
    expect(() => new MemberRoleGuard(new Reflector()).canActivate({ getHandler: () => Routes.prototype.change, getClass: () => Routes, switchToHttp: () => ({ getRequest: () => ({ principal: member('viewer') }) }) } as unknown as ExecutionContext)).toThrow(
      'This needs the admin role; your role in this tenant is viewer',
    );
  });
});

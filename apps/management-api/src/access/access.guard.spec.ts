import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { SesameConfig, SystemClock } from '@sesame/common';
import { Organization, OrganizationKey, OrganizationRepository } from '@sesame/entities';
import { TenantPrincipal } from '@sesame/guards';
import { Access, ACCESS, AccessRule, RequestWithAccess } from './access.decorator';
import { AccessGuard } from './access.guard';

const TENANT = '0b7c6a52-3c0e-4a51-9f5e-6f1d2c3b4a51';
const ORGANIZATION = '5d0c8e4b-7a3f-4c2e-8b1d-9e6f5a4c3b2d';

/** A read of the organization held open until the test answers it, so that requests overlap. */
class HeldOrganizations {
  readonly reads: { keys: OrganizationKey[]; answer(): void }[] = [];

  findMany(keys: OrganizationKey[]): Promise<Organization[]> {
    return new Promise((resolve) => {
      // Only TENANT has the organization, as in the database: a key of another tenant finds nothing.
      const found = keys
        .filter(({ tenantId }) => tenantId === TENANT)
        .map(({ tenantId, id }) => ({ id, tenantId, name: 'Acme', whitelistDomains: ['acme.example'] }) as Organization);
      this.reads.push({ keys, answer: () => resolve(found) });
    });
  }
}

function guardWith(organizations: HeldOrganizations): AccessGuard {
  const reflector = new Reflector();
  const config = { members: { reauthSeconds: 300 } } as SesameConfig;
  return new AccessGuard(reflector, organizations as unknown as OrganizationRepository, new SystemClock(), config);
}

/** A GET of the organization by a tenant key, on a route declaring `@Access({ role: 'viewer', organization: 'id' })`. */
function readOf(tenantId = TENANT): { context: ExecutionContext; request: RequestWithAccess } {
  const principal: TenantPrincipal = { kind: 'tenant', tenantId, plan: 'pro', apiKeyId: 'key', apiKeyName: 'key', role: 'viewer' };
  const request: RequestWithAccess = { headers: {}, principal, params: { id: ORGANIZATION } };
  class Route {
    read() {}
  }
  const rule: AccessRule = { role: 'viewer', organization: 'id' };
  Reflect.defineMetadata(ACCESS, rule, Route.prototype.read);
  const context = {
    getHandler: () => Route.prototype.read,
    getClass: () => Route,
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
  return { context, request };
}

describe('AccessGuard', () => {
  it("a viewer let through on a controller that inherits the handler with a viewer rule is refused on the base controller's admin route", async () => {
    @Access({ role: 'admin' })
    class AdminController {
      change() {}
    }
    @Access({ role: 'viewer' })
    class ViewerController extends AdminController {}
    const guard = guardWith(new HeldOrganizations());
    const viewer: TenantPrincipal = { kind: 'tenant', tenantId: TENANT, plan: 'pro', apiKeyId: 'key', apiKeyName: 'key', role: 'viewer' };
    const on = (controller: typeof AdminController) =>
      ({
        getHandler: () => AdminController.prototype.change,
        getClass: () => controller,
        switchToHttp: () => ({ getRequest: () => ({ headers: {}, principal: viewer, params: {} }) }),
      }) as unknown as ExecutionContext;
    await expect(guard.canActivate(on(ViewerController))).resolves.toBe(true);
    await expect(guard.canActivate(on(AdminController))).rejects.toMatchObject({ status: 403, code: 'insufficient_role' });
  });

  it('requests that overlap share one read of their organization, each with its own copy to change', async () => {
    const organizations = new HeldOrganizations();
    const guard = guardWith(organizations);
    const [first, second, third] = [readOf(), readOf(), readOf()];
    const passing = [guard.canActivate(first.context), guard.canActivate(second.context), guard.canActivate(third.context)];
    organizations.reads[0].answer();
    // The other two asked while the first read was out: they go out together once it is answered.
    while (organizations.reads.length < 2) await Promise.resolve();
    organizations.reads[1].answer();
    expect(await Promise.all(passing)).toEqual([true, true, true]);

    expect(organizations.reads.map((read) => read.keys.length)).toEqual([1, 1]);
    // An update changes the organization it was handed; a read running beside it must not see that.
    second.request.organization!.name = 'Changed, not saved';
    second.request.organization!.whitelistDomains.push('changed.example');
    expect(third.request.organization).toMatchObject({ name: 'Acme', whitelistDomains: ['acme.example'] });
  });

  it('a key of another tenant naming the organization in the same batch gets 404, never the row read for its owner', async () => {
    const organizations = new HeldOrganizations();
    const guard = guardWith(organizations);
    const busy = guard.canActivate(readOf().context);
    const [owner, stranger] = [readOf(), readOf('9f1e2d3c-4b5a-4697-8877-665544332211')];
    const passing = [guard.canActivate(owner.context), guard.canActivate(stranger.context)];
    organizations.reads[0].answer();
    while (organizations.reads.length < 2) await Promise.resolve();
    expect(organizations.reads[1].keys).toHaveLength(2);
    organizations.reads[1].answer();

    expect(await busy).toBe(true);
    expect(await passing[0]).toBe(true);
    await expect(passing[1]).rejects.toMatchObject({ code: 'not_found' });
    expect(stranger.request.organization).toBeUndefined();
  });
});

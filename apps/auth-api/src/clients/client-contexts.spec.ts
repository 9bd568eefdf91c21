import { CacheInvalidation, CacheInvalidationBus, ManualClock, SesameConfig } from '@sesame/common';
import { ApplicationRepository, ClientContext } from '@sesame/entities';
import { ClientContexts } from './client-contexts';

const contextOf = (applicationId: string, linkTtlSeconds = 600): ClientContext =>
  ({
    application: { id: applicationId },
    organization: { id: 'org-1', whitelistDomains: ['https://app.example.com'], linkTtlSeconds },
    tenant: { id: 'tenant-1', plan: 'pro' },
  }) as unknown as ClientContext;

describe('ClientContexts', () => {
  let clock: ManualClock;
  let stored: Map<string, ClientContext>;
  let lookups: number;
  /** While set, a lookup reads the row at once but answers only when the gate opens. */
  let gate: Promise<void> | null;
  let publish: (message: CacheInvalidation) => void;
  let contexts: ClientContexts;

  beforeEach(() => {
    clock = new ManualClock();
    stored = new Map([['app-1', contextOf('app-1')]]);
    lookups = 0;
    gate = null;
    const applications = {
      findContextById: async (id: string) => {
        lookups++;
        const found = stored.get(id) ?? null;
        await gate;
        return found;
      },
      // Each application's client_id is `client-` and its id.
      findContextByClientId: async (clientId: string) => {
        lookups++;
        const found = stored.get(clientId.replace(/^client-/, '')) ?? null;
        await gate;
        return found;
      },
    } as unknown as ApplicationRepository;
    const bus = { subscribe: (handler: (message: CacheInvalidation) => void) => (publish = handler) } as unknown as CacheInvalidationBus;
    contexts = new ClientContexts(applications, clock, { auth: { clientCacheSeconds: 5 } } as SesameConfig, bus);
  });

  describe.each([
    ['by application id', (id: string) => contexts.find(id)],
    ['by client_id (the hosted page)', (id: string) => contexts.findByClientId(`client-${id}`)],
  ])('%s', (_, find) => {
    it('reuses a context for the cache time, then reads it again', async () => {
      await find('app-1');
      stored.set('app-1', contextOf('app-1', 60));
      clock.advance(4.9);
      expect((await find('app-1'))?.organization.linkTtlSeconds).toBe(600);
      clock.advance(0.2);
      expect((await find('app-1'))?.organization.linkTtlSeconds).toBe(60);
      expect(lookups).toBe(2);
    });

    it.each<CacheInvalidation>([
      { kind: 'application', applicationId: 'app-1' },
      { kind: 'organization', organizationId: 'org-1' },
      { kind: 'tenant', tenantId: 'tenant-1' },
    ])('drops it at once when told the %o changed', async (message) => {
      await find('app-1');
      stored.set('app-1', contextOf('app-1', 60));
      publish(message);
      expect((await find('app-1'))?.organization.linkTtlSeconds).toBe(60);
    });

    it('keeps it when something else changed', async () => {
      await find('app-1');
      publish({ kind: 'application', applicationId: 'app-2' });
      publish({ kind: 'organization', organizationId: 'org-2' });
      await find('app-1');
      expect(lookups).toBe(1);
    });

    it('does not keep a lookup that overlapped an invalidation: it may have read the row from before the change', async () => {
      let open!: () => void;
      gate = new Promise((resolve) => (open = resolve));
      const overlapping = find('app-1');
      stored.set('app-1', contextOf('app-1', 60));
      publish({ kind: 'organization', organizationId: 'org-1' });
      open();
      expect((await overlapping)?.organization.linkTtlSeconds).toBe(600);
      gate = null;
      expect((await find('app-1'))?.organization.linkTtlSeconds).toBe(60);
    });

    it('does not cache an application that no longer exists', async () => {
      expect(await find('gone')).toBeNull();
      stored.set('gone', contextOf('gone'));
      expect(await find('gone')).not.toBeNull();
    });
  });
});

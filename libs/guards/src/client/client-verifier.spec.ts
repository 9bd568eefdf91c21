import { CacheInvalidation, CacheInvalidationBus, ClientSecretVerifier, ManualClock, SesameConfig } from '@sesame/common';
import { ApplicationRepository, ClientCredentials } from '@sesame/entities';
import { ClientVerifier } from './client-verifier';

describe('ClientVerifier', () => {
  const verifiers = new ClientSecretVerifier(Buffer.alloc(32, 7));
  const stored = (secret: string): ClientCredentials => ({
    applicationId: 'app-1',
    type: 'web',
    organizationId: 'org-1',
    tenantId: 'tenant-1',
    plan: 'pro',
    clientSecretVerifier: verifiers.of(secret),
    clientSecretHash: null,
    previousClientSecretVerifier: null,
    previousClientSecretExpiresAt: null,
    idTokenEncryptedResponseAlg: null,
  });
  let row: ClientCredentials;
  /** While set, a lookup reads the row at once but answers only when the gate opens. */
  let gate: Promise<void> | null;
  let publish: (message: CacheInvalidation) => void;
  let clients: ClientVerifier;

  beforeEach(() => {
    row = stored('old-secret');
    gate = null;
    const applications = {
      findCredentials: async () => {
        const found = row;
        await gate;
        return found;
      },
    } as unknown as ApplicationRepository;
    const bus = { subscribe: (handler: (message: CacheInvalidation) => void) => (publish = handler) } as unknown as CacheInvalidationBus;
    const config = { auth: { clientCacheSeconds: 5 } } as SesameConfig;
    clients = new ClientVerifier(applications, new ManualClock(), verifiers, config, bus);
  });

  it('a secret rotated without overlap while its lookup was out is refused on the next request', async () => {
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    const overlapping = clients.find('client-1');
    row = stored('new-secret');
    publish({ kind: 'application', applicationId: 'app-1' });
    open();
    expect(clients.secretMatches((await overlapping)!, 'old-secret')).toBe(true);
    gate = null;
    const next = (await clients.find('client-1'))!;
    expect([clients.secretMatches(next, 'old-secret'), clients.secretMatches(next, 'new-secret')]).toEqual([false, true]);
  });
});

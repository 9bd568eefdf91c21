import { CacheInvalidation, CacheInvalidationBus, ManualClock, SesameConfig } from '@sesame/common';
import { ApiKeyRepository, LiveApiKey } from '@sesame/entities';
import { generateApiKey } from './api-key-format';
import { ApiKeyVerifier } from './api-key-verifier';

describe('ApiKeyVerifier', () => {
  const { key, hash } = generateApiKey();
  const live: LiveApiKey = { id: 'key-1', name: 'ci', tenantId: 'tenant-1', organizationId: null, role: 'admin', plan: 'pro' };
  let revoked: boolean;
  let lookups: number;
  /** While set, a lookup reads the row at once but answers only when the gate opens. */
  let gate: Promise<void> | null;
  let publish: (message: CacheInvalidation) => void;
  let verifier: ApiKeyVerifier;

  beforeEach(() => {
    revoked = false;
    lookups = 0;
    gate = null;
    const keys = {
      findLive: async () => {
        lookups++;
        const found = revoked ? null : live;
        await gate;
        return found;
      },
      recordUse: async () => undefined,
    } as unknown as ApiKeyRepository;
    const bus = { subscribe: (handler: (message: CacheInvalidation) => void) => (publish = handler) } as unknown as CacheInvalidationBus;
    const config = { secrets: { platformApiKey: null }, apiKeys: { cacheSeconds: 5 } } as unknown as SesameConfig;
    verifier = new ApiKeyVerifier(keys, config, new ManualClock(), bus);
  });

  it('reuses a live key for the cache time', async () => {
    await verifier.verify(key);
    revoked = true;
    expect(await verifier.verify(key)).toMatchObject({ apiKeyId: 'key-1' });
    expect(lookups).toBe(1);
  });

  it('a key revoked on another instance while its lookup was out is refused on the next request', async () => {
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    const overlapping = verifier.verify(key);
    revoked = true;
    publish({ kind: 'api-key', apiKeyId: 'key-1' });
    open();
    expect(await overlapping).toMatchObject({ apiKeyId: 'key-1' });
    gate = null;
    expect(await verifier.verify(key)).toBeNull();
  });

  it('a key revoked on this instance while its lookup was out is refused on the next request', async () => {
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    const overlapping = verifier.verify(key);
    revoked = true;
    verifier.forget(hash);
    open();
    await overlapping;
    gate = null;
    expect(await verifier.verify(key)).toBeNull();
  });
});

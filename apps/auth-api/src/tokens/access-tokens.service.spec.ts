import { ManualClock, randomSecret, SesameConfig } from '@sesame/common';
import { ClientPrincipal } from '@sesame/guards';
import { AccessTokenRepository, UserInfoTokenRow } from '@sesame/entities';
import { AccessTokensService } from './access-tokens.service';
import { FailedLookupLimiter } from './failed-lookup-limiter';
import { IdTokenService } from './id-token.service';

describe('AccessTokensService.userInfo', () => {
  const clock = new ManualClock();
  const config = { auth: { accessTokenCacheSeconds: 5 }, limits: { globalPerIp: 100 } } as unknown as SesameConfig;
  const client = { applicationId: 'app-1' } as ClientPrincipal;
  const token = randomSecret();
  let revoked: boolean;
  let lookups: number;
  /** While set, a lookup reads the row at once but answers only when the gate opens. */
  let gate: Promise<void> | null;
  let service: AccessTokensService;

  beforeEach(() => {
    revoked = false;
    lookups = 0;
    gate = null;
    const tokens = {
      findForUserInfo: async ([hash]: Buffer[]): Promise<UserInfoTokenRow[]> => {
        lookups++;
        const row: UserInfoTokenRow = {
          hash,
          user_id: 'user-1',
          email: 'ada@example.com',
          email_verified: true,
          name: null,
          organization_id: 'org-1',
          updated_at: clock.now(),
          expires_at: new Date(clock.now().getTime() + 3_600_000),
          revoked,
          blocked: false,
        };
        await gate;
        return [row];
      },
      revoke: async () => {
        revoked = true;
      },
    } as unknown as AccessTokenRepository;
    service = new AccessTokensService(tokens, clock, {} as IdTokenService, new FailedLookupLimiter(clock, config), config);
  });

  it('answers a live token from the cache for the cache time', async () => {
    await service.userInfo(token, '203.0.113.1');
    expect(await service.userInfo(token, '203.0.113.1')).toMatchObject({ sub: 'user-1' });
    expect(lookups).toBe(1);
  });

  it('a leaked token revoked here stops at once, even while a lookup of it was out', async () => {
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    const overlapping = service.userInfo(token, '203.0.113.1');
    await service.revoke(client, token);
    open();
    expect(await overlapping).toMatchObject({ sub: 'user-1' });
    gate = null;
    await expect(service.userInfo(token, '203.0.113.1')).rejects.toMatchObject({ status: 401 });
  });
});

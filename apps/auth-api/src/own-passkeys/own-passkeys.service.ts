import { Injectable } from '@nestjs/common';
import { Clock, notFound } from '@sesame/common';
import { OrganizationRepository, PasskeySummary, UserPasskeys } from '@sesame/entities';
import { AccessTokensService } from '../tokens/access-tokens.service';
import { OwnPasskeyListResponse, OwnPasskeyResponse } from './dto/own-passkey.dto';

/** Who asks: the bearer of an access token, from an address, in a request. */
export interface OwnPasskeysCaller {
  token: string | undefined;
  ip: string;
  requestId: string | null;
}

/** A user's own passkeys, seen and removed with an access token issued to them (as userinfo reads their profile). */
@Injectable()
export class OwnPasskeysService {
  constructor(
    private readonly tokens: AccessTokensService,
    private readonly passkeys: UserPasskeys,
    private readonly organizations: OrganizationRepository,
    private readonly clock: Clock,
  ) {}

  async list(caller: OwnPasskeysCaller): Promise<OwnPasskeyListResponse> {
    const owner = await this.tokens.owner(caller.token, caller.ip);
    return { data: (await this.passkeys.list(owner.organizationId, owner.userId)).map(toResponse) };
  }

  /** Removes one of the caller's passkeys (it stops signing in at once), audited with the user as actor; 404 for any other. */
  async remove(caller: OwnPasskeysCaller, passkeyId: string): Promise<void> {
    const owner = await this.tokens.owner(caller.token, caller.ip);
    const tenantId = await this.organizations.findTenantId(owner.organizationId);
    const removed =
      tenantId &&
      (await this.passkeys.remove(
        { tenantId, organizationId: owner.organizationId, userId: owner.userId },
        passkeyId,
        { type: 'user', id: owner.userId, name: owner.email, ip: caller.ip, requestId: caller.requestId },
        this.clock.now(),
      ));
    if (!removed) throw notFound('passkey');
  }
}

function toResponse(passkey: PasskeySummary): OwnPasskeyResponse {
  return {
    id: passkey.id,
    name: passkey.name,
    deviceType: passkey.deviceType,
    backedUp: passkey.backedUp,
    rpId: passkey.rpId,
    createdAt: passkey.createdAt.toISOString(),
    lastUsedAt: passkey.lastUsedAt?.toISOString() ?? null,
  };
}

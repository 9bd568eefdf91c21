import { Injectable } from '@nestjs/common';
import { Clock, notFound } from '@sesame/common';
import { Organization, UserPasskeys, UserRepository } from '@sesame/entities';
import { PasskeyList, PasskeyResponse } from './dto/passkey.dto';

/** The passkeys of one organization's users; the caller has already checked the organization is in reach. */
@Injectable()
export class UserPasskeysService {
  constructor(
    private readonly users: UserRepository,
    private readonly passkeys: UserPasskeys,
    private readonly clock: Clock,
  ) {}

  /** 404 for a user the organization does not have, like the user's own route. */
  async list(organizationId: string, userId: string): Promise<PasskeyList> {
    if (!(await this.users.find(organizationId, userId))) throw notFound('user');
    const passkeys = await this.passkeys.list(organizationId, userId);
    return { data: passkeys.map(PasskeyResponse.from) };
  }

  /**
   * Removes one passkey; it stops signing in at once. `passkey.removed` is sent in the change's
   * transaction; the route's audit interceptor records who removed it (hence no actor here).
   * Another user's or organization's passkey is 404, exactly like one that does not exist.
   */
  async remove(organization: Organization, userId: string, passkeyId: string): Promise<void> {
    const owner = { tenantId: organization.tenantId, organizationId: organization.id, userId };
    const removed = await this.passkeys.remove(owner, passkeyId, null, this.clock.now());
    if (!removed) throw notFound('passkey');
  }
}

import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuditActorType } from '../entities/audit-event.entity';
import { AuditEventRepository } from '../repositories/audit-event.repository';
import { PasskeyRepository, PasskeySummary } from '../repositories/passkey.repository';
import { Transactions } from '../repositories/transactions';
import { UserRepository } from '../repositories/user.repository';
import { WebhookEventRepository } from '../repositories/webhook-event.repository';

/** Who registers or removes a passkey, as the audit log records them. */
export interface PasskeyActor {
  type: AuditActorType;
  /** The user's, key's or member's id; null for the platform key and Sesame. */
  id: string | null;
  name: string | null;
  ip: string | null;
  requestId: string | null;
}

/** Whose passkey: the tenant is the audit log's, the organization and user the passkey's. */
export interface PasskeyOwner {
  tenantId: string;
  organizationId: string;
  userId: string;
}

/**
 * The rules every change to a user's passkeys keeps, whichever app makes it: each registration
 * and removal is reported (`passkey.registered`, `passkey.removed`) and audited in the
 * transaction of the change. (A deleted user's passkeys go with the user, reported by `user.deleted`.)
 */
@Injectable()
export class UserPasskeys {
  constructor(
    private readonly transactions: Transactions,
    private readonly passkeys: PasskeyRepository,
    private readonly users: UserRepository,
    private readonly webhookEvents: WebhookEventRepository,
    private readonly audit: AuditEventRepository,
  ) {}

  /** The user's passkeys, oldest first; empty for a user of another organization. */
  list(organizationId: string, userId: string): Promise<PasskeySummary[]> {
    return this.passkeys.listForUser(organizationId, userId);
  }

  /**
   * Removes one passkey of the user (it stops signing in at once); null when the user has none of
   * that id. `actor` null: the caller audits the change itself (the management API's routes do).
   */
  async remove(owner: PasskeyOwner, passkeyId: string, actor: PasskeyActor | null, now: Date): Promise<PasskeySummary | null> {
    return this.transactions.run(async (manager) => {
      // The passkey's row before its user's, the order a passkey sign-in locks them in: the other
      // order deadlocked with a sign-in of the same passkey (one of the two failed with a 500).
      const removed = await this.passkeys.delete(manager, owner.organizationId, owner.userId, passkeyId);
      if (!removed) return null;
      const user = await this.users.findForUpdate(manager, owner.organizationId, owner.userId);
      if (!user) return null;
      await this.reported(manager, 'passkey.removed', owner, user.email, removed, actor, now);
      return removed;
    });
  }

  /** A registration just stored (in the caller's transaction): reported and audited. */
  async registered(
    manager: EntityManager,
    owner: PasskeyOwner,
    email: string,
    passkey: PasskeySummary,
    actor: PasskeyActor,
    now: Date,
  ): Promise<void> {
    await this.reported(manager, 'passkey.registered', owner, email, passkey, actor, now);
  }

  private async reported(
    manager: EntityManager,
    type: 'passkey.registered' | 'passkey.removed',
    owner: PasskeyOwner,
    email: string,
    passkey: PasskeySummary,
    actor: PasskeyActor | null,
    now: Date,
  ): Promise<void> {
    await this.webhookEvents.record(manager, {
      type,
      scope: { organizationId: owner.organizationId },
      data: {
        user: { id: owner.userId, email, organizationId: owner.organizationId },
        passkey: passkeyOfEvent(passkey),
        [type === 'passkey.registered' ? 'registeredAt' : 'removedAt']: now.toISOString(),
      },
    });
    if (!actor) return;
    await this.audit.insert(manager, {
      tenantId: owner.tenantId,
      actorType: actor.type,
      actorId: actor.id,
      actorName: actor.name,
      action: type === 'passkey.registered' ? 'passkey.register' : 'passkey.remove',
      targetType: 'passkey',
      targetId: passkey.id,
      changes: { userId: owner.userId, name: passkey.name },
      ip: actor.ip,
      requestId: actor.requestId,
      createdAt: now,
    });
  }
}

/** A passkey as webhook events show it. */
function passkeyOfEvent(passkey: PasskeySummary) {
  return { id: passkey.id, name: passkey.name, deviceType: passkey.deviceType, backedUp: passkey.backedUp };
}

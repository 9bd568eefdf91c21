import { AuditActorType } from '@sesame/entities';
import { Principal } from '@sesame/guards';

/** Who made a change, as the audit log and invitations name them. */
export interface Actor {
  type: AuditActorType;
  /** The API key's or member's id; null for the platform key. */
  id: string | null;
  /** The API key's name or the member's address; null for the platform key. */
  name: string | null;
}

export function actorOf(principal: Principal): Actor {
  switch (principal.kind) {
    case 'platform':
      return { type: 'platform', id: null, name: null };
    case 'member':
      return { type: 'member', id: principal.memberId, name: principal.email };
    default:
      return { type: 'api_key', id: principal.apiKeyId, name: principal.apiKeyName };
  }
}

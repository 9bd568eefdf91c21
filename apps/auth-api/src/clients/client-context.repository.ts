import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ApplicationType, Plan } from '@sesame/common';
import { DataSource, EntityManager } from 'typeorm';

/** What the login flow needs to know about an application and its organization. */
export interface ClientContext {
  application: { id: string; name: string; type: ApplicationType; clientId: string; callbackUrls: string[] };
  organization: { id: string; name: string; whitelistDomains: string[]; autologin: boolean; linkTtlSeconds: number };
  tenant: { id: string; plan: Plan };
}

interface ContextRow {
  application_id: string;
  application_name: string;
  type: ApplicationType;
  client_id: string;
  callback_urls: string[];
  organization_id: string;
  organization_name: string;
  whitelist_domains: string[];
  autologin: boolean;
  link_ttl_seconds: number;
  tenant_id: string;
  plan: Plan;
}

@Injectable()
export class ClientContextRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Inside a transaction, pass its manager: a second pool connection could wait for one held by a transaction that waits for this one. */
  findByApplicationId(applicationId: string, manager?: EntityManager): Promise<ClientContext | null> {
    return this.findOne('a.id = $1', applicationId, manager);
  }

  /** A client_id no application can have (too long, control characters Postgres refuses) is unknown without a query. */
  findByClientId(clientId: string): Promise<ClientContext | null> {
    return clientId.length > 64 || /[\u0000-\u001f\u007f]/.test(clientId) ? Promise.resolve(null) : this.findOne('a.client_id = $1', clientId);
  }

  private async findOne(condition: string, value: string, manager?: EntityManager): Promise<ClientContext | null> {
    const rows: ContextRow[] = await (manager ?? this.dataSource).query(
      `SELECT a.id AS application_id, a.name AS application_name, a.type, a.client_id, a.callback_urls,
              o.id AS organization_id, o.name AS organization_name, o.whitelist_domains, o.autologin, o.link_ttl_seconds,
              t.id AS tenant_id, t.plan
         FROM application a
         JOIN organization o ON o.id = a.organization_id
         JOIN tenant t ON t.id = o.tenant_id
        WHERE ${condition}`,
      [value],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      application: { id: row.application_id, name: row.application_name, type: row.type, clientId: row.client_id, callbackUrls: row.callback_urls },
      organization: {
        id: row.organization_id,
        name: row.organization_name,
        whitelistDomains: row.whitelist_domains,
        autologin: row.autologin,
        linkTtlSeconds: row.link_ttl_seconds,
      },
      tenant: { id: row.tenant_id, plan: row.plan },
    };
  }
}

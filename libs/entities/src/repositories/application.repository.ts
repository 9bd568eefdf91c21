import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ApplicationType, PageQuery, Plan } from '@sesame/common';
import { DataSource, EntityManager } from 'typeorm';
import { Application } from '../entities/application.entity';
import { PasskeyPolicy } from '../entities/organization.entity';
import { keysetPage } from './keyset-page';

/** What the login flow needs to know about an application and its organization. */
export interface ClientContext {
  application: { id: string; name: string; type: ApplicationType; clientId: string; callbackUrls: string[] };
  organization: {
    id: string;
    name: string;
    whitelistDomains: string[];
    autologin: boolean;
    linkTtlSeconds: number;
    passkeys: PasskeyPolicy;
  };
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
  passkeys: PasskeyPolicy;
  tenant_id: string;
  plan: Plan;
}

/** What an autologin walk needs of the application and its organization. */
export interface AutologinSettings {
  autologin: boolean;
  whitelistDomains: string[];
  type: ApplicationType;
  callbackUrls: string[];
}

/** What client authentication checks an application's secret against, with its organization's tenant and plan. */
export interface ClientCredentials {
  applicationId: string;
  type: ApplicationType;
  organizationId: string;
  tenantId: string;
  plan: Plan;
  clientSecretVerifier: Buffer | null;
  clientSecretHash: Buffer | null;
  previousClientSecretVerifier: Buffer | null;
  previousClientSecretExpiresAt: Date | null;
  idTokenEncryptedResponseAlg: string | null;
}

export type NewApplication = Omit<Application, 'id' | 'createdAt' | 'updatedAt' | 'organization'>;

const COLUMNS = `id, organization_id AS "organizationId", name, type, client_id AS "clientId", client_secret_hash AS "clientSecretHash",
  client_secret_verifier AS "clientSecretVerifier", client_secret_encrypted AS "clientSecretEncrypted",
  previous_client_secret_verifier AS "previousClientSecretVerifier", previous_client_secret_encrypted AS "previousClientSecretEncrypted",
  previous_client_secret_expires_at AS "previousClientSecretExpiresAt", id_token_encrypted_response_alg AS "idTokenEncryptedResponseAlg",
  callback_urls AS "callbackUrls", created_at AS "createdAt", updated_at AS "updatedAt"`;

/** application: the management API's applications (always within one organization), and the login flow's view of them. */
@Injectable()
export class ApplicationRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async find(organizationId: string, id: string, manager: EntityManager | null = null): Promise<Application | null> {
    const rows: Application[] = await (manager ?? this.dataSource).query(
      `SELECT ${COLUMNS} FROM application WHERE organization_id = $1 AND id = $2`,
      [organizationId, id],
    );
    return rows[0] ?? null;
  }

  /** The organization's oldest application (the system tenant's organization has one: the console). */
  async findFirstOf(manager: EntityManager, organizationId: string): Promise<Application | null> {
    const rows: Application[] = await manager.query(
      `SELECT ${COLUMNS} FROM application WHERE organization_id = $1 ORDER BY created_at, id LIMIT 1`,
      [organizationId],
    );
    return rows[0] ?? null;
  }

  list(organizationId: string, page: PageQuery): Promise<Application[]> {
    const params: unknown[] = [organizationId];
    const { after, orderAndLimit } = keysetPage(page, params);
    return this.dataSource.query(`SELECT ${COLUMNS} FROM application WHERE organization_id = $1${after} ${orderAndLimit}`, params);
  }

  async insert(application: NewApplication): Promise<Application> {
    const rows: Application[] = await this.dataSource.query(
      `INSERT INTO application (organization_id, name, type, client_id, client_secret_hash, client_secret_verifier, client_secret_encrypted,
                                previous_client_secret_verifier, previous_client_secret_encrypted, previous_client_secret_expires_at,
                                id_token_encrypted_response_alg, callback_urls)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING ${COLUMNS}`,
      [
        application.organizationId,
        application.name,
        application.type,
        application.clientId,
        application.clientSecretHash,
        application.clientSecretVerifier,
        application.clientSecretEncrypted,
        application.previousClientSecretVerifier,
        application.previousClientSecretEncrypted,
        application.previousClientSecretExpiresAt,
        application.idTokenEncryptedResponseAlg,
        application.callbackUrls,
      ],
    );
    return rows[0];
  }

  /** Writes the application's settings (name, callback URLs, id_token encryption); updated_at moves only when one changes. */
  async updateSettings(application: Application): Promise<Application> {
    const rows: Application[] = await this.dataSource.query(
      `WITH updated AS (
         UPDATE application SET name = $3, callback_urls = $4, id_token_encrypted_response_alg = $5,
                updated_at = CASE WHEN (name, callback_urls, id_token_encrypted_response_alg) IS DISTINCT FROM ($3::varchar, $4::text[], $5::varchar)
                                  THEN now() ELSE updated_at END
          WHERE organization_id = $1 AND id = $2 RETURNING ${COLUMNS})
       SELECT * FROM updated`,
      [application.organizationId, application.id, application.name, application.callbackUrls, application.idTokenEncryptedResponseAlg],
    );
    return rows[0] ?? application;
  }

  /** Writes the application's current and previous secrets, in the caller's transaction. */
  async updateSecrets(manager: EntityManager, application: Application): Promise<Application> {
    const rows: Application[] = await manager.query(
      `WITH updated AS (
         UPDATE application SET client_secret_hash = $3, client_secret_verifier = $4, client_secret_encrypted = $5,
                previous_client_secret_verifier = $6, previous_client_secret_encrypted = $7, previous_client_secret_expires_at = $8, updated_at = now()
          WHERE organization_id = $1 AND id = $2 RETURNING ${COLUMNS})
       SELECT * FROM updated`,
      [
        application.organizationId,
        application.id,
        application.clientSecretHash,
        application.clientSecretVerifier,
        application.clientSecretEncrypted,
        application.previousClientSecretVerifier,
        application.previousClientSecretEncrypted,
        application.previousClientSecretExpiresAt,
      ],
    );
    return rows[0] ?? application;
  }

  /** Applications whose secret is still stored as a bare SHA-256 (and sealed), locked for the caller's transaction. */
  lockLegacyHashes(manager: EntityManager): Promise<Application[]> {
    return manager.query(
      `SELECT ${COLUMNS} FROM application WHERE client_secret_hash IS NOT NULL AND client_secret_encrypted IS NOT NULL FOR UPDATE`,
    );
  }

  /** Stores the application's verifier in place of its legacy hash, in the caller's transaction. */
  async replaceLegacyHash(manager: EntityManager, id: string, verifier: Buffer): Promise<void> {
    await manager.query('UPDATE application SET client_secret_verifier = $2, client_secret_hash = NULL, updated_at = now() WHERE id = $1', [
      id,
      verifier,
    ]);
  }

  async delete(organizationId: string, id: string): Promise<void> {
    await this.dataSource.query('DELETE FROM application WHERE organization_id = $1 AND id = $2', [organizationId, id]);
  }

  /** Inside a transaction, pass its manager: a second pool connection could wait for one held by a transaction that waits for this one. */
  findContextById(applicationId: string, manager?: EntityManager): Promise<ClientContext | null> {
    return this.findContext('a.id = $1', applicationId, manager);
  }

  /** A client_id no application can have (too long, control characters Postgres refuses) is unknown without a query. */
  findContextByClientId(clientId: string): Promise<ClientContext | null> {
    return clientId.length > 64 || /[\u0000-\u001f\u007f]/.test(clientId)
      ? Promise.resolve(null)
      : this.findContext('a.client_id = $1', clientId);
  }

  /** The application of this client_id as client authentication sees it; null when there is none. */
  async findCredentials(clientId: string): Promise<ClientCredentials | null> {
    const rows: ClientCredentials[] = await this.dataSource.query(
      `SELECT a.id AS "applicationId", a.type, a.organization_id AS "organizationId", o.tenant_id AS "tenantId", t.plan,
              a.client_secret_verifier AS "clientSecretVerifier", a.client_secret_hash AS "clientSecretHash",
              a.previous_client_secret_verifier AS "previousClientSecretVerifier", a.previous_client_secret_expires_at AS "previousClientSecretExpiresAt",
              a.id_token_encrypted_response_alg AS "idTokenEncryptedResponseAlg"
         FROM application a
         JOIN organization o ON o.id = a.organization_id
         JOIN tenant t ON t.id = o.tenant_id
        WHERE a.client_id = $1`,
      [clientId],
    );
    return rows[0] ?? null;
  }

  /** The application's type and callback URLs with its organization's autologin settings, in the caller's transaction. */
  async findAutologinSettings(manager: EntityManager, applicationId: string): Promise<AutologinSettings | null> {
    const rows: { autologin: boolean; whitelist_domains: string[]; type: ApplicationType; callback_urls: string[] }[] = await manager.query(
      `SELECT o.autologin, o.whitelist_domains, a.type, a.callback_urls
         FROM application a JOIN organization o ON o.id = a.organization_id WHERE a.id = $1`,
      [applicationId],
    );
    const row = rows[0];
    return row
      ? { autologin: row.autologin, whitelistDomains: row.whitelist_domains, type: row.type, callbackUrls: row.callback_urls }
      : null;
  }

  private async findContext(condition: string, value: string, manager?: EntityManager): Promise<ClientContext | null> {
    const rows: ContextRow[] = await (manager ?? this.dataSource).query(
      `SELECT a.id AS application_id, a.name AS application_name, a.type, a.client_id, a.callback_urls,
              o.id AS organization_id, o.name AS organization_name, o.whitelist_domains, o.autologin, o.link_ttl_seconds, o.passkeys,
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
      application: {
        id: row.application_id,
        name: row.application_name,
        type: row.type,
        clientId: row.client_id,
        callbackUrls: row.callback_urls,
      },
      organization: {
        id: row.organization_id,
        name: row.organization_name,
        whitelistDomains: row.whitelist_domains,
        autologin: row.autologin,
        linkTtlSeconds: row.link_ttl_seconds,
        passkeys: row.passkeys,
      },
      tenant: { id: row.tenant_id, plan: row.plan },
    };
  }
}

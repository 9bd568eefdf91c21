import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ApplicationType, digestsEqual, Plan, sha256 } from '@sesame/common';
import { DataSource } from 'typeorm';

export interface RegisteredClient {
  applicationId: string;
  clientId: string;
  type: ApplicationType;
  organizationId: string;
  tenantId: string;
  plan: Plan;
  clientSecretHash: Buffer | null;
}

/** Finds applications by client_id and checks client secrets in constant time. */
@Injectable()
export class ClientVerifier {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async find(clientId: string): Promise<RegisteredClient | null> {
    if (clientId.length === 0 || clientId.length > 64) return null;
    const rows: { id: string; type: ApplicationType; organization_id: string; tenant_id: string; plan: Plan; client_secret_hash: Buffer | null }[] =
      await this.dataSource.query(
        `SELECT a.id, a.type, a.organization_id, o.tenant_id, t.plan, a.client_secret_hash
           FROM application a
           JOIN organization o ON o.id = a.organization_id
           JOIN tenant t ON t.id = o.tenant_id
          WHERE a.client_id = $1`,
        [clientId],
      );
    const row = rows[0];
    if (!row) return null;
    return {
      applicationId: row.id,
      clientId,
      type: row.type,
      organizationId: row.organization_id,
      tenantId: row.tenant_id,
      plan: row.plan,
      clientSecretHash: row.client_secret_hash,
    };
  }

  secretMatches(client: RegisteredClient, secret: string): boolean {
    return client.clientSecretHash !== null && digestsEqual(sha256(secret), client.clientSecretHash);
  }
}

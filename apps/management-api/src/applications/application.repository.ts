import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { PageQuery } from '@sesame/common';
import { AccessToken, Application, keysetQueryBuilder } from '@sesame/entities';
import { IsNull, Not, Repository } from 'typeorm';

/** Applications, always looked up within one organization. */
@Injectable()
export class ApplicationRepository {
  constructor(@InjectRepository(Application) private readonly applications: Repository<Application>) {}

  find(organizationId: string, id: string): Promise<Application | null> {
    return this.applications.findOneBy({ organizationId, id });
  }

  list(organizationId: string, page: PageQuery): Promise<Application[]> {
    const query = this.applications.createQueryBuilder('application').where('application.organizationId = :organizationId', { organizationId });
    return keysetQueryBuilder(query, page).getMany();
  }

  insert(application: Omit<Application, 'id' | 'createdAt' | 'updatedAt'>): Promise<Application> {
    return this.applications.save(this.applications.create(application));
  }

  save(application: Application): Promise<Application> {
    return this.applications.save(application);
  }

  /** Saves a rotated secret and, when `revokeTokensAt` is given, revokes the application's access tokens, in one transaction. */
  saveRotation(application: Application, revokeTokensAt: Date | null): Promise<Application> {
    return this.applications.manager.transaction(async (manager) => {
      const saved = await manager.save(application);
      if (revokeTokensAt) await manager.update(AccessToken, { applicationId: application.id, revokedAt: IsNull() }, { revokedAt: revokeTokensAt });
      return saved;
    });
  }

  /** Replaces every legacy SHA-256 secret hash with the verifier computed for its application, in one transaction. */
  replaceLegacyHashes(verifierOf: (application: Application) => Buffer): Promise<number> {
    return this.applications.manager.transaction(async (manager) => {
      const legacy = await manager.find(Application, { where: { clientSecretHash: Not(IsNull()), clientSecretEncrypted: Not(IsNull()) }, lock: { mode: 'pessimistic_write' } });
      for (const application of legacy) {
        await manager.update(Application, { id: application.id }, { clientSecretVerifier: verifierOf(application), clientSecretHash: null });
      }
      return legacy.length;
    });
  }

  async delete(organizationId: string, id: string): Promise<void> {
    await this.applications.delete({ organizationId, id });
  }
}

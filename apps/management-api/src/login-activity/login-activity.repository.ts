import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { keysetQueryBuilder, LoginAttempt, LoginAttemptStatus } from '@sesame/entities';
import { Repository } from 'typeorm';

export interface LoginActivityFilter {
  email: string | null;
  applicationId: string | null;
  status: LoginAttemptStatus | null;
  from: Date | null;
  to: Date | null;
}

export interface LoginActivityRow {
  attempt: LoginAttempt;
  applicationName: string;
  /** The attempt's status as callers see it: a pending attempt past its expiry is expired. */
  status: LoginAttemptStatus;
}

/** The status an attempt is reported in, as SQL: stored status, but a pending attempt past its expiry is expired. */
const REPORTED_STATUS = `CASE WHEN "attempt"."status" = 'pending' AND "attempt"."expires_at" <= :now THEN 'expired' ELSE "attempt"."status"::text END`;

/** Login activity of an organization, read from login_attempt (owned here for the management API's one query). */
@Injectable()
export class LoginActivityRepository {
  constructor(@InjectRepository(LoginAttempt) private readonly attempts: Repository<LoginAttempt>) {}

  /** `limit + 1` attempts of the organization after the cursor, newest first, filtered as asked. */
  async list(organizationId: string, filter: LoginActivityFilter, page: { limit: number; cursor?: string }, now: Date): Promise<LoginActivityRow[]> {
    const query = this.attempts
      .createQueryBuilder('attempt')
      .innerJoin('attempt.application', 'application')
      .addSelect('application.name', 'application_name')
      .addSelect(REPORTED_STATUS, 'reported_status')
      .where('attempt.organizationId = :organizationId', { organizationId })
      .setParameter('now', now);
    if (filter.email !== null) query.andWhere('attempt.email = :email', { email: filter.email });
    if (filter.applicationId !== null) query.andWhere('attempt.applicationId = :applicationId', { applicationId: filter.applicationId });
    if (filter.status !== null) query.andWhere(`${REPORTED_STATUS} = :status`, { status: filter.status });
    if (filter.from !== null) query.andWhere('attempt.createdAt >= :from', { from: filter.from });
    if (filter.to !== null) query.andWhere('attempt.createdAt < :to', { to: filter.to });
    const { entities, raw } = await keysetQueryBuilder(query, page, 'newest').getRawAndEntities<{ application_name: string; reported_status: LoginAttemptStatus }>();
    return entities.map((attempt, i) => ({ attempt, applicationName: raw[i].application_name, status: raw[i].reported_status }));
  }
}

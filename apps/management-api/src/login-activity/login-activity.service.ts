import { Injectable } from '@nestjs/common';
import { Clock, Page, toPage, validEmail } from '@sesame/common';
import { LoginActivityItem, LoginAttemptRepository } from '@sesame/entities';
import { LoginActivityQuery, LoginActivityResponse, MailState } from './login-activity.dto';

/** Login activity of one organization; the caller has already checked the organization is in reach. */
@Injectable()
export class LoginActivityService {
  constructor(
    private readonly attempts: LoginAttemptRepository,
    private readonly clock: Clock,
  ) {}

  async list(organizationId: string, query: LoginActivityQuery): Promise<Page<LoginActivityResponse>> {
    const filter = {
      email: query.email === undefined ? null : validEmail(query.email),
      applicationId: query.applicationId ?? null,
      status: query.status ?? null,
      from: query.from === undefined ? null : new Date(query.from),
      to: query.to === undefined ? null : new Date(query.to),
    };
    return toPage(await this.attempts.listActivity(organizationId, filter, query, this.clock.now()), query.limit, toResponse);
  }
}

function toResponse(attempt: LoginActivityItem): LoginActivityResponse {
  return {
    id: attempt.id,
    applicationId: attempt.applicationId,
    applicationName: attempt.applicationName,
    email: attempt.email,
    status: attempt.status,
    mail: mailState(attempt),
    createdAt: attempt.createdAt.toISOString(),
    expiresAt: attempt.expiresAt.toISOString(),
    mailQueuedAt: attempt.mailQueuedAt?.toISOString() ?? null,
    mailSentAt: attempt.mailSentAt?.toISOString() ?? null,
    mailFailedAt: attempt.mailFailedAt?.toISOString() ?? null,
    completedAt: attempt.usedAt?.toISOString() ?? null,
    method: attempt.method,
  };
}

function mailState(attempt: LoginActivityItem): MailState {
  if (attempt.mailSuppressed) return 'suppressed';
  if (attempt.mailSentAt) return 'sent';
  if (attempt.mailFailedAt) return 'failed';
  return attempt.mailQueuedAt ? 'queued' : 'not_queued';
}

import { Module } from '@nestjs/common';
import { RepositoriesModule } from '@sesame/entities';
import { AuditController } from './audit.controller';
import { AuditInterceptor } from './audit.interceptor';
import { AuditService } from './audit.service';

/**
 * The audit log: written by AuditInterceptor for every @Audited route, read at GET /v2/tenant/audit_event.
 * A feature module whose controllers have @Audited routes imports it (the interceptor is the route's own).
 */
@Module({
  imports: [RepositoriesModule],
  controllers: [AuditController],
  providers: [AuditService, AuditInterceptor],
  exports: [AuditService, AuditInterceptor],
})
export class AuditModule {}

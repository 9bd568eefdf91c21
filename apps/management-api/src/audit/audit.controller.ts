import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { pageOf } from '@sesame/common';
import { Access, CurrentTenantId } from '../access/access.decorator';
import { ManagementErrors } from '../access/management-errors';
import { AuditService } from './audit.service';
import { AuditEventQuery, AuditEventResponse } from './dto/audit-event.dto';

class AuditEventPage extends pageOf(AuditEventResponse) {}

@ApiTags('Audit log')
@Controller({ path: 'tenant/audit_event', version: '2' })
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @Access({ role: 'admin' })
  @ApiOperation({
    summary: "The tenant's audit log, newest first (admin and owner keys and members)",
    description: 'Every change made through the management API, by a key or a member. Filters combine.',
  })
  @ApiOkResponse({ type: AuditEventPage })
  @ManagementErrors()
  list(@CurrentTenantId() tenantId: string, @Query() query: AuditEventQuery) {
    return this.audit.list(tenantId, query);
  }
}

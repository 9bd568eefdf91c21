import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { pageOf, PageQuery, ProblemDetails, RequestId, UuidParam } from '@sesame/common';
import { CurrentPrincipal, Principal } from '@sesame/guards';
import { Access } from '../access/access.decorator';
import { ManagementErrors } from '../access/management-errors';
import { Audited, fromParam } from '../audit/audited.decorator';
import { CreatedTenantResponse, CreateTenantDto, TenantResponse, UpdateTenantDto } from './dto/tenant.dto';
import { TenantsService } from './tenants.service';

class TenantPage extends pageOf(TenantResponse) {}

@ApiTags('Tenants')
@Controller({ path: 'tenant', version: '2' })
export class TenantsController {
  constructor(private readonly tenants: TenantsService) {}

  @Post()
  @Access({ platform: true })
  @Audited('tenant.create', (_params, answer) => (answer as CreatedTenantResponse).tenant.id)
  @ApiOperation({ summary: 'Create a tenant, its first API key and optionally its first owner (platform key)' })
  @ApiCreatedResponse({ type: CreatedTenantResponse })
  @ApiServiceUnavailableResponse({
    type: ProblemDetails,
    description: "The owner's invitation cannot be queued (`mail_queue_unavailable`); nothing was created.",
  })
  @ManagementErrors()
  create(@Body() body: CreateTenantDto, @RequestId() requestId: string | null) {
    return this.tenants.createTenant(body, requestId);
  }

  @Get()
  @Access({ platform: true, role: 'viewer', organizationKeys: true })
  @ApiOperation({ summary: "Platform key: every tenant. Other keys and members: the caller's own tenant, with its plan limits" })
  @ApiOkResponse({ type: TenantPage })
  @ManagementErrors()
  list(@CurrentPrincipal() principal: Principal, @Query() page: PageQuery) {
    return this.tenants.list(principal, page);
  }

  @Get(':tenantId')
  @Access({ platform: true, role: 'viewer', tenant: 'tenantId', organizationKeys: true })
  @ApiOperation({ summary: "Read a tenant (platform key, one of the tenant's keys, or a member)" })
  @ApiOkResponse({ type: TenantResponse })
  @ManagementErrors({ notFound: true })
  get(@UuidParam('tenantId') tenantId: string) {
    return this.tenants.get(tenantId);
  }

  @Post(':tenantId')
  @HttpCode(200)
  @Access({ platform: true, role: 'admin', tenant: 'tenantId' })
  @Audited('tenant.update', fromParam('tenantId'))
  @ApiOperation({ summary: 'Update a tenant: name (tenant key, admins); plan only with the platform key' })
  @ApiOkResponse({ type: TenantResponse })
  @ManagementErrors({ notFound: true })
  update(@CurrentPrincipal() principal: Principal, @UuidParam('tenantId') tenantId: string, @Body() body: UpdateTenantDto) {
    return this.tenants.update(principal, tenantId, body);
  }
}

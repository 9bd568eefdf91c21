import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { pageOf, PageQuery, UuidParam } from '@sesame/common';
import { CurrentPrincipal, Principal } from '@sesame/guards';
import { ManagementErrors } from '../access/management-errors';
import { CreatedTenantResponse, CreateTenantDto, TenantResponse, UpdateTenantDto } from './dto/tenant.dto';
import { TenantsService } from './tenants.service';

class TenantPage extends pageOf(TenantResponse) {}

@ApiTags('Tenants')
@Controller({ path: 'tenant', version: '2' })
export class TenantsController {
  constructor(private readonly tenants: TenantsService) {}

  @Post()
  @ApiOperation({ summary: 'Create a tenant and its first API key (platform key)' })
  @ApiCreatedResponse({ type: CreatedTenantResponse })
  @ManagementErrors()
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateTenantDto) {
    return this.tenants.create(principal, body);
  }

  @Get()
  @ApiOperation({ summary: "Platform key: every tenant. Other keys: the caller's own tenant, with its plan limits" })
  @ApiOkResponse({ type: TenantPage })
  @ManagementErrors()
  list(@CurrentPrincipal() principal: Principal, @Query() page: PageQuery) {
    return this.tenants.list(principal, page);
  }

  @Get(':tenantId')
  @ApiOperation({ summary: "Read a tenant (platform key, or one of the tenant's keys)" })
  @ApiOkResponse({ type: TenantResponse })
  @ManagementErrors({ notFound: true })
  get(@CurrentPrincipal() principal: Principal, @UuidParam('tenantId') tenantId: string) {
    return this.tenants.get(principal, tenantId);
  }

  @Post(':tenantId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Update a tenant: name; plan only with the platform key' })
  @ApiOkResponse({ type: TenantResponse })
  @ManagementErrors({ notFound: true })
  update(@CurrentPrincipal() principal: Principal, @UuidParam('tenantId') tenantId: string, @Body() body: UpdateTenantDto) {
    return this.tenants.update(principal, tenantId, body);
  }
}

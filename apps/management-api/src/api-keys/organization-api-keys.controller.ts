import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { pageOf, PageQuery, UuidParam } from '@sesame/common';
import { AllowMembers, CurrentPrincipal, Principal } from '@sesame/guards';
import { OrganizationsService } from '../organizations/organizations.service';
import { ManagementErrors } from '../access/management-errors';
import { Audited, fromAnswer, fromParam } from '../audit/audited.decorator';
import { ApiKeysService } from './api-keys.service';
import { ApiKeyResponse, CreateApiKeyDto, CreatedApiKeyResponse } from './dto/api-key.dto';

class ApiKeyPage extends pageOf(ApiKeyResponse) {}

@ApiTags('API keys')
@Controller({ path: 'organization/:organizationId/api_key', version: '2' })
export class OrganizationApiKeysController {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly organizations: OrganizationsService,
  ) {}

  @Get()
  @AllowMembers('viewer')
  @ApiOperation({ summary: "List the organization's keys (revoked ones included)" })
  @ApiOkResponse({ type: ApiKeyPage })
  @ManagementErrors({ notFound: true })
  async list(@CurrentPrincipal() principal: Principal, @UuidParam('organizationId') organizationId: string, @Query() page: PageQuery) {
    const organization = await this.organizations.findReachable(principal, organizationId);
    return this.apiKeys.list({ tenantId: organization.tenantId, organizationId }, page);
  }

  @Post()
  @AllowMembers('admin')
  @Audited('api_key.create', fromAnswer)
  @ApiOperation({ summary: 'Create an organization key; the key is shown only in this response' })
  @ApiCreatedResponse({ type: CreatedApiKeyResponse })
  @ManagementErrors({ notFound: true })
  async create(@CurrentPrincipal() principal: Principal, @UuidParam('organizationId') organizationId: string, @Body() body: CreateApiKeyDto) {
    const organization = await this.organizations.findReachable(principal, organizationId);
    return this.apiKeys.create({ tenantId: organization.tenantId, organizationId }, body.name);
  }

  @Delete(':keyId')
  @HttpCode(204)
  @AllowMembers('admin')
  @Audited('api_key.revoke', fromParam('keyId'))
  @ApiOperation({ summary: 'Revoke an organization key' })
  @ApiNoContentResponse({ description: 'Revoked (or already revoked).' })
  @ManagementErrors({ notFound: true })
  async revoke(@CurrentPrincipal() principal: Principal, @UuidParam('organizationId') organizationId: string, @UuidParam('keyId') keyId: string): Promise<void> {
    const organization = await this.organizations.findReachable(principal, organizationId);
    await this.apiKeys.revoke({ tenantId: organization.tenantId, organizationId }, keyId);
  }
}

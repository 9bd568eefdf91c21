import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { pageOf, PageQuery, UuidParam } from '@sesame/common';
import { Organization } from '@sesame/entities';
import { CurrentPrincipal, TenantScopedPrincipal } from '@sesame/guards';
import { Access, CurrentOrganization } from '../access/access.decorator';
import { ManagementErrors } from '../access/management-errors';
import { Audited, fromAnswer, fromParam } from '../audit/audited.decorator';
import { ApiKeysService, keyCreatorOf } from './api-keys.service';
import { ApiKeyResponse, CreateApiKeyDto, CreatedApiKeyResponse } from './dto/api-key.dto';

class ApiKeyPage extends pageOf(ApiKeyResponse) {}

const keysOf = (organization: Organization) => ({ tenantId: organization.tenantId, organizationId: organization.id });

@ApiTags('API keys')
@Controller({ path: 'organization/:organizationId/api_key', version: '2' })
export class OrganizationApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Get()
  @Access({ role: 'viewer', organization: 'organizationId' })
  @ApiOperation({ summary: "List the organization's keys (revoked ones included), with each key's role and creator" })
  @ApiOkResponse({ type: ApiKeyPage })
  @ManagementErrors({ notFound: true })
  list(@CurrentOrganization() organization: Organization, @Query() page: PageQuery) {
    return this.apiKeys.list(keysOf(organization), page);
  }

  @Post()
  @Access({ role: 'admin', organization: 'organizationId', freshSignIn: true })
  @Audited('api_key.create', fromAnswer)
  @ApiOperation({
    summary: 'Create an organization key (admin or viewer, no higher than the creator’s role); the key is shown only in this response',
  })
  @ApiCreatedResponse({ type: CreatedApiKeyResponse })
  @ManagementErrors({ notFound: true })
  create(
    @CurrentPrincipal() principal: TenantScopedPrincipal,
    @CurrentOrganization() organization: Organization,
    @Body() body: CreateApiKeyDto,
  ) {
    return this.apiKeys.create(keysOf(organization), keyCreatorOf(principal), body);
  }

  @Delete(':keyId')
  @HttpCode(204)
  @Access({ role: 'admin', organization: 'organizationId', freshSignIn: true })
  @Audited('api_key.revoke', fromParam('keyId'))
  @ApiOperation({ summary: 'Revoke an organization key' })
  @ApiNoContentResponse({ description: 'Revoked (or already revoked).' })
  @ManagementErrors({ notFound: true })
  async revoke(
    @CurrentPrincipal() principal: TenantScopedPrincipal,
    @CurrentOrganization() organization: Organization,
    @UuidParam('keyId') keyId: string,
  ): Promise<void> {
    await this.apiKeys.revoke(keysOf(organization), principal.role, keyId);
  }
}

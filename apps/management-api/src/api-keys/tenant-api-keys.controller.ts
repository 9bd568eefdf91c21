import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { pageOf, PageQuery, UuidParam } from '@sesame/common';
import { CurrentPrincipal, TenantScopedPrincipal } from '@sesame/guards';
import { Access } from '../access/access.decorator';
import { ManagementErrors } from '../access/management-errors';
import { Audited, fromAnswer, fromParam } from '../audit/audited.decorator';
import { ApiKeysService, keyCreatorOf } from './api-keys.service';
import { ApiKeyResponse, CreateApiKeyDto, CreatedApiKeyResponse } from './dto/api-key.dto';

class ApiKeyPage extends pageOf(ApiKeyResponse) {}

const tenantKeys = (principal: TenantScopedPrincipal) => ({ tenantId: principal.tenantId, organizationId: null });

@ApiTags('API keys')
@Controller({ path: 'tenant/api_key', version: '2' })
export class TenantApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Get()
  @Access({ role: 'viewer' })
  @ApiOperation({ summary: "List the tenant's own keys (revoked ones included), with each key's role and creator" })
  @ApiOkResponse({ type: ApiKeyPage })
  @ManagementErrors()
  list(@CurrentPrincipal() principal: TenantScopedPrincipal, @Query() page: PageQuery) {
    return this.apiKeys.list(tenantKeys(principal), page);
  }

  @Post()
  @Access({ role: 'admin', freshSignIn: true })
  @Audited('api_key.create', fromAnswer)
  @ApiOperation({ summary: 'Create a tenant key, with a role no higher than the creator’s; the key is shown only in this response' })
  @ApiCreatedResponse({ type: CreatedApiKeyResponse })
  @ManagementErrors()
  create(@CurrentPrincipal() principal: TenantScopedPrincipal, @Body() body: CreateApiKeyDto) {
    return this.apiKeys.create(tenantKeys(principal), keyCreatorOf(principal), body);
  }

  @Delete(':keyId')
  @HttpCode(204)
  @Access({ role: 'admin', freshSignIn: true })
  @Audited('api_key.revoke', fromParam('keyId'))
  @ApiOperation({ summary: 'Revoke a tenant key (one whose role is no higher than the caller’s)' })
  @ApiNoContentResponse({ description: 'Revoked (or already revoked).' })
  @ManagementErrors({ notFound: true })
  async revoke(@CurrentPrincipal() principal: TenantScopedPrincipal, @UuidParam('keyId') keyId: string): Promise<void> {
    await this.apiKeys.revoke(tenantKeys(principal), principal.role, keyId);
  }
}

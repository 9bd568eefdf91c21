import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { pageOf, PageQuery, UuidParam } from '@sesame/common';
import { AllowMembers, CurrentPrincipal, Principal } from '@sesame/guards';
import { requireTenantKey } from '../access/access';
import { ManagementErrors } from '../access/management-errors';
import { Audited, fromAnswer, fromParam } from '../audit/audited.decorator';
import { ApiKeysService } from './api-keys.service';
import { ApiKeyResponse, CreateApiKeyDto, CreatedApiKeyResponse } from './dto/api-key.dto';

class ApiKeyPage extends pageOf(ApiKeyResponse) {}

@ApiTags('API keys')
@Controller({ path: 'tenant/api_key', version: '2' })
export class TenantApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Get()
  @AllowMembers('viewer')
  @ApiOperation({ summary: "List the tenant's own keys (revoked ones included)" })
  @ApiOkResponse({ type: ApiKeyPage })
  @ManagementErrors()
  list(@CurrentPrincipal() principal: Principal, @Query() page: PageQuery) {
    const { tenantId } = requireTenantKey(principal);
    return this.apiKeys.list({ tenantId, organizationId: null }, page);
  }

  @Post()
  @AllowMembers('admin')
  @Audited('api_key.create', fromAnswer)
  @ApiOperation({ summary: 'Create a tenant key; the key is shown only in this response' })
  @ApiCreatedResponse({ type: CreatedApiKeyResponse })
  @ManagementErrors()
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateApiKeyDto) {
    const { tenantId } = requireTenantKey(principal);
    return this.apiKeys.create({ tenantId, organizationId: null }, body.name);
  }

  @Delete(':keyId')
  @HttpCode(204)
  @AllowMembers('admin')
  @Audited('api_key.revoke', fromParam('keyId'))
  @ApiOperation({ summary: 'Revoke a tenant key' })
  @ApiNoContentResponse({ description: 'Revoked (or already revoked).' })
  @ManagementErrors({ notFound: true })
  async revoke(@CurrentPrincipal() principal: Principal, @UuidParam('keyId') keyId: string): Promise<void> {
    const { tenantId } = requireTenantKey(principal);
    await this.apiKeys.revoke({ tenantId, organizationId: null }, keyId);
  }
}

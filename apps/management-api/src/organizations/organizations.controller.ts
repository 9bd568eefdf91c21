import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { pageOf, PageQuery } from '@sesame/common';
import { Organization } from '@sesame/entities';
import { Access, CurrentOrganization, CurrentTenantId } from '../access/access.decorator';
import { ManagementErrors } from '../access/management-errors';
import { Audited, fromAnswer, fromParam } from '../audit/audited.decorator';
import { CreateOrganizationDto, OrganizationResponse, UpdateOrganizationDto } from './dto/organization.dto';
import { OrganizationsService } from './organizations.service';

class OrganizationPage extends pageOf(OrganizationResponse) {}

@ApiTags('Organizations')
@Controller({ path: 'organization', version: '2' })
export class OrganizationsController {
  constructor(private readonly organizations: OrganizationsService) {}

  @Get()
  @Access({ role: 'viewer' })
  @ApiOperation({ summary: "List the tenant's organizations (tenant keys, members)" })
  @ApiOkResponse({ type: OrganizationPage })
  @ManagementErrors()
  list(@CurrentTenantId() tenantId: string, @Query() page: PageQuery) {
    return this.organizations.list(tenantId, page);
  }

  @Post()
  @Access({ role: 'admin' })
  @Audited('organization.create', fromAnswer)
  @ApiOperation({ summary: 'Create an organization (tenant keys, members: admin or owner)' })
  @ApiCreatedResponse({ type: OrganizationResponse })
  @ManagementErrors()
  create(@CurrentTenantId() tenantId: string, @Body() body: CreateOrganizationDto) {
    return this.organizations.create(tenantId, body);
  }

  @Get(':id')
  @Access({ role: 'viewer', organization: 'id' })
  @ApiOperation({ summary: 'Read an organization (tenant keys, members, or that organization’s keys)' })
  @ApiOkResponse({ type: OrganizationResponse })
  @ManagementErrors({ notFound: true })
  get(@CurrentOrganization() organization: Organization) {
    return OrganizationResponse.from(organization);
  }

  @Post(':id')
  @HttpCode(200)
  @Access({ role: 'admin', organization: 'id' })
  @Audited('organization.update', fromParam('id'))
  @ApiOperation({
    summary: 'Update an organization: name, whitelist domains, autologin, link lifetime, passkeys',
    description:
      'Logins started after the answer use the new settings on every auth-api instance (within CLIENT_CACHE_SECONDS, 5 s by default, while Redis is away). ' +
      'A link already sent is checked against the new whitelist when it is used.',
  })
  @ApiOkResponse({ type: OrganizationResponse })
  @ManagementErrors({ notFound: true })
  update(@CurrentOrganization() organization: Organization, @Body() body: UpdateOrganizationDto) {
    return this.organizations.update(organization, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @Access({ role: 'admin', organization: 'id', freshSignIn: true })
  @Audited('organization.delete', fromParam('id'))
  @ApiOperation({ summary: 'Delete an organization with its users, applications and keys' })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ManagementErrors({ notFound: true })
  async delete(@CurrentOrganization() organization: Organization): Promise<void> {
    await this.organizations.delete(organization);
  }
}

import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { pageOf, PageQuery, UuidParam } from '@sesame/common';
import { AllowMembers, CurrentPrincipal, Principal } from '@sesame/guards';
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
  @AllowMembers('viewer')
  @ApiOperation({ summary: "List the tenant's organizations (tenant key, members)" })
  @ApiOkResponse({ type: OrganizationPage })
  @ManagementErrors()
  list(@CurrentPrincipal() principal: Principal, @Query() page: PageQuery) {
    return this.organizations.list(principal, page);
  }

  @Post()
  @AllowMembers('admin')
  @Audited('organization.create', fromAnswer)
  @ApiOperation({ summary: 'Create an organization (tenant key, admins)' })
  @ApiCreatedResponse({ type: OrganizationResponse })
  @ManagementErrors()
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateOrganizationDto) {
    return this.organizations.create(principal, body);
  }

  @Get(':id')
  @AllowMembers('viewer')
  @ApiOperation({ summary: 'Read an organization (tenant key, or that organization’s key)' })
  @ApiOkResponse({ type: OrganizationResponse })
  @ManagementErrors({ notFound: true })
  get(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string) {
    return this.organizations.get(principal, id);
  }

  @Post(':id')
  @HttpCode(200)
  @AllowMembers('admin')
  @Audited('organization.update', fromParam('id'))
  @ApiOperation({ summary: 'Update an organization: name, whitelist domains, autologin, link lifetime' })
  @ApiOkResponse({ type: OrganizationResponse })
  @ManagementErrors({ notFound: true })
  update(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string, @Body() body: UpdateOrganizationDto) {
    return this.organizations.update(principal, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @AllowMembers('admin')
  @Audited('organization.delete', fromParam('id'))
  @ApiOperation({ summary: 'Delete an organization with its users, applications and keys' })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ManagementErrors({ notFound: true })
  async delete(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<void> {
    await this.organizations.delete(principal, id);
  }
}

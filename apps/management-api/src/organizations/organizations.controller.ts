import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { pageOf, PageQuery, UuidParam } from '@sesame/common';
import { CurrentPrincipal, Principal } from '@sesame/guards';
import { ManagementErrors } from '../access/management-errors';
import { CreateOrganizationDto, OrganizationResponse, UpdateOrganizationDto } from './dto/organization.dto';
import { OrganizationsService } from './organizations.service';

class OrganizationPage extends pageOf(OrganizationResponse) {}

@ApiTags('Organizations')
@Controller({ path: 'organization', version: '2' })
export class OrganizationsController {
  constructor(private readonly organizations: OrganizationsService) {}

  @Get()
  @ApiOperation({ summary: "List the tenant's organizations (tenant key)" })
  @ApiOkResponse({ type: OrganizationPage })
  @ManagementErrors()
  list(@CurrentPrincipal() principal: Principal, @Query() page: PageQuery) {
    return this.organizations.list(principal, page);
  }

  @Post()
  @ApiOperation({ summary: 'Create an organization (tenant key)' })
  @ApiCreatedResponse({ type: OrganizationResponse })
  @ManagementErrors()
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateOrganizationDto) {
    return this.organizations.create(principal, body);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Read an organization (tenant key, or that organization’s key)' })
  @ApiOkResponse({ type: OrganizationResponse })
  @ManagementErrors({ notFound: true })
  get(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string) {
    return this.organizations.get(principal, id);
  }

  @Post(':id')
  @HttpCode(200)
  @ApiOperation({ summary: 'Update an organization: name, whitelist domains, autologin, link lifetime' })
  @ApiOkResponse({ type: OrganizationResponse })
  @ManagementErrors({ notFound: true })
  update(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string, @Body() body: UpdateOrganizationDto) {
    return this.organizations.update(principal, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an organization with its users, applications and keys' })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ManagementErrors({ notFound: true })
  async delete(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<void> {
    await this.organizations.delete(principal, id);
  }
}

import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { pageOf, ProblemDetails, UuidParam } from '@sesame/common';
import { Organization } from '@sesame/entities';
import { Access, CurrentOrganization } from '../access/access.decorator';
import { ManagementErrors } from '../access/management-errors';
import { Audited, fromAnswer, fromParam } from '../audit/audited.decorator';
import { CreateUserDto, UpdateUserDto, UserQuery, UserResponse } from './dto/user.dto';
import { UsersService } from './users.service';

class UserPage extends pageOf(UserResponse) {}

@ApiTags('Users')
@Controller({ path: 'organization/:organizationId/user', version: '2' })
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @Access({ role: 'viewer', organization: 'organizationId' })
  @ApiOperation({ summary: "List the organization's users, optionally filtered by e-mail" })
  @ApiOkResponse({ type: UserPage })
  @ManagementErrors({ notFound: true })
  list(@CurrentOrganization() organization: Organization, @Query() query: UserQuery) {
    return this.users.list(organization.id, query);
  }

  @Post()
  @Access({ role: 'admin', organization: 'organizationId' })
  @Audited('user.create', fromAnswer)
  @ApiOperation({ summary: 'Create a user' })
  @ApiCreatedResponse({ type: UserResponse })
  @ApiConflictResponse({ type: ProblemDetails, description: 'The e-mail address is taken in this organization.' })
  @ManagementErrors({ notFound: true })
  create(@CurrentOrganization() organization: Organization, @Body() body: CreateUserDto) {
    return this.users.create(organization.id, body);
  }

  @Get(':userId')
  @Access({ role: 'viewer', organization: 'organizationId' })
  @ApiOperation({ summary: 'Read a user' })
  @ApiOkResponse({ type: UserResponse })
  @ManagementErrors({ notFound: true })
  get(@CurrentOrganization() organization: Organization, @UuidParam('userId') userId: string) {
    return this.users.get(organization.id, userId);
  }

  @Post(':userId')
  @HttpCode(200)
  @Access({ role: 'admin', organization: 'organizationId' })
  @Audited('user.update', fromParam('userId'))
  @ApiOperation({ summary: 'Update a user: name, blocked' })
  @ApiOkResponse({ type: UserResponse })
  @ManagementErrors({ notFound: true })
  update(@CurrentOrganization() organization: Organization, @UuidParam('userId') userId: string, @Body() body: UpdateUserDto) {
    return this.users.update(organization.id, userId, body);
  }

  @Delete(':userId')
  @HttpCode(204)
  @Access({ role: 'admin', organization: 'organizationId' })
  @Audited('user.delete', fromParam('userId'))
  @ApiOperation({ summary: 'Delete a user and their tokens' })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ManagementErrors({ notFound: true })
  async delete(@CurrentOrganization() organization: Organization, @UuidParam('userId') userId: string): Promise<void> {
    await this.users.delete(organization.id, userId);
  }
}

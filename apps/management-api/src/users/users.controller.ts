import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { pageOf, ProblemDetails, UuidParam } from '@sesame/common';
import { AllowMembers, CurrentPrincipal, Principal } from '@sesame/guards';
import { ManagementErrors } from '../access/management-errors';
import { Audited, fromAnswer, fromParam } from '../audit/audited.decorator';
import { OrganizationsService } from '../organizations/organizations.service';
import { CreateUserDto, UpdateUserDto, UserQuery, UserResponse } from './dto/user.dto';
import { UsersService } from './users.service';

class UserPage extends pageOf(UserResponse) {}

@ApiTags('Users')
@Controller({ path: 'organization/:organizationId/user', version: '2' })
export class UsersController {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly users: UsersService,
  ) {}

  @Get()
  @AllowMembers('viewer')
  @ApiOperation({ summary: "List the organization's users, optionally filtered by e-mail" })
  @ApiOkResponse({ type: UserPage })
  @ManagementErrors({ notFound: true })
  async list(@CurrentPrincipal() principal: Principal, @UuidParam('organizationId') organizationId: string, @Query() query: UserQuery) {
    await this.organizations.findReachable(principal, organizationId);
    return this.users.list(organizationId, query);
  }

  @Post()
  @AllowMembers('admin')
  @Audited('user.create', fromAnswer)
  @ApiOperation({ summary: 'Create a user' })
  @ApiCreatedResponse({ type: UserResponse })
  @ApiConflictResponse({ type: ProblemDetails, description: 'The e-mail address is taken in this organization.' })
  @ManagementErrors({ notFound: true })
  async create(@CurrentPrincipal() principal: Principal, @UuidParam('organizationId') organizationId: string, @Body() body: CreateUserDto) {
    await this.organizations.findReachable(principal, organizationId);
    return this.users.create(organizationId, body);
  }

  @Get(':userId')
  @AllowMembers('viewer')
  @ApiOperation({ summary: 'Read a user' })
  @ApiOkResponse({ type: UserResponse })
  @ManagementErrors({ notFound: true })
  async get(@CurrentPrincipal() principal: Principal, @UuidParam('organizationId') organizationId: string, @UuidParam('userId') userId: string) {
    await this.organizations.findReachable(principal, organizationId);
    return this.users.get(organizationId, userId);
  }

  @Post(':userId')
  @HttpCode(200)
  @AllowMembers('admin')
  @Audited('user.update', fromParam('userId'))
  @ApiOperation({ summary: 'Update a user: name, blocked' })
  @ApiOkResponse({ type: UserResponse })
  @ManagementErrors({ notFound: true })
  async update(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('organizationId') organizationId: string,
    @UuidParam('userId') userId: string,
    @Body() body: UpdateUserDto,
  ) {
    await this.organizations.findReachable(principal, organizationId);
    return this.users.update(organizationId, userId, body);
  }

  @Delete(':userId')
  @HttpCode(204)
  @AllowMembers('admin')
  @Audited('user.delete', fromParam('userId'))
  @ApiOperation({ summary: 'Delete a user and their tokens' })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ManagementErrors({ notFound: true })
  async delete(@CurrentPrincipal() principal: Principal, @UuidParam('organizationId') organizationId: string, @UuidParam('userId') userId: string): Promise<void> {
    await this.organizations.findReachable(principal, organizationId);
    await this.users.delete(organizationId, userId);
  }
}

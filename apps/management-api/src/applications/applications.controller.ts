import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { pageOf, PageQuery, UuidParam } from '@sesame/common';
import { AllowMembers, CurrentPrincipal, Principal } from '@sesame/guards';
import { canSeeSecrets } from '../access/access';
import { ManagementErrors } from '../access/management-errors';
import { Audited, fromAnswer, fromParam } from '../audit/audited.decorator';
import { OrganizationsService } from '../organizations/organizations.service';
import { ApplicationsService } from './applications.service';
import { ApplicationResponse, ApplicationSummary, CreateApplicationDto, RotateSecretDto, UpdateApplicationDto } from './dto/application.dto';

class ApplicationPage extends pageOf(ApplicationSummary) {}

@ApiTags('Applications')
@Controller({ path: 'organization/:organizationId/application', version: '2' })
export class ApplicationsController {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly applications: ApplicationsService,
  ) {}

  @Get()
  @AllowMembers('viewer')
  @ApiOperation({ summary: "List the organization's applications (without secrets)" })
  @ApiOkResponse({ type: ApplicationPage })
  @ManagementErrors({ notFound: true })
  async list(@CurrentPrincipal() principal: Principal, @UuidParam('organizationId') organizationId: string, @Query() page: PageQuery) {
    await this.organizations.findReachable(principal, organizationId);
    return this.applications.list(organizationId, page);
  }

  @Post()
  @AllowMembers('admin')
  @Audited('application.create', fromAnswer)
  @ApiOperation({ summary: 'Register an application; web apps get a client secret' })
  @ApiCreatedResponse({ type: ApplicationResponse })
  @ManagementErrors({ notFound: true })
  async create(@CurrentPrincipal() principal: Principal, @UuidParam('organizationId') organizationId: string, @Body() body: CreateApplicationDto) {
    await this.organizations.findReachable(principal, organizationId);
    return this.applications.create(organizationId, body);
  }

  @Get(':applicationId')
  @AllowMembers('viewer')
  @ApiOperation({ summary: 'Read the integration data of an application, client secret included (but for members with the viewer role)' })
  @ApiOkResponse({ type: ApplicationResponse })
  @ManagementErrors({ notFound: true })
  async get(@CurrentPrincipal() principal: Principal, @UuidParam('organizationId') organizationId: string, @UuidParam('applicationId') applicationId: string) {
    await this.organizations.findReachable(principal, organizationId);
    return this.applications.get(organizationId, applicationId, canSeeSecrets(principal));
  }

  @Post(':applicationId')
  @HttpCode(200)
  @AllowMembers('admin')
  @Audited('application.update', fromParam('applicationId'))
  @ApiOperation({ summary: 'Update an application: name, callback URLs, id_token encryption' })
  @ApiOkResponse({ type: ApplicationResponse })
  @ManagementErrors({ notFound: true })
  async update(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('organizationId') organizationId: string,
    @UuidParam('applicationId') applicationId: string,
    @Body() body: UpdateApplicationDto,
  ) {
    await this.organizations.findReachable(principal, organizationId);
    return this.applications.update(organizationId, applicationId, body);
  }

  @Post(':applicationId/rotate_secret')
  @HttpCode(200)
  @AllowMembers('admin')
  @Audited('application.rotate_secret', fromParam('applicationId'))
  @ApiOperation({
    summary: "Replace a web app's client secret",
    description:
      'The replaced secret keeps authenticating for `overlapSeconds` (default CLIENT_SECRET_ROTATION_OVERLAP_SECONDS, 86400; 0 stops it at once), ' +
      'so running deployments can switch over; a client still using it gets id_tokens encrypted with it. `revokeAccessTokens` also revokes every access token of the application. ' +
      'Other auth-api instances see the change within CLIENT_CACHE_SECONDS (5 s by default). Native applications have no secret: 400 `no_client_secret`.',
  })
  @ApiBody({ type: RotateSecretDto, required: false })
  @ApiOkResponse({ type: ApplicationResponse })
  @ManagementErrors({ notFound: true })
  async rotateSecret(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('organizationId') organizationId: string,
    @UuidParam('applicationId') applicationId: string,
    @Body() body: RotateSecretDto,
  ) {
    await this.organizations.findReachable(principal, organizationId);
    return this.applications.rotateSecret(organizationId, applicationId, body ?? {});
  }

  @Delete(':applicationId')
  @HttpCode(204)
  @AllowMembers('admin')
  @Audited('application.delete', fromParam('applicationId'))
  @ApiOperation({ summary: 'Delete an application and its tokens' })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ManagementErrors({ notFound: true })
  async delete(@CurrentPrincipal() principal: Principal, @UuidParam('organizationId') organizationId: string, @UuidParam('applicationId') applicationId: string): Promise<void> {
    await this.organizations.findReachable(principal, organizationId);
    await this.applications.delete(organizationId, applicationId);
  }
}

import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { pageOf, PageQuery, UuidParam } from '@sesame/common';
import { Organization } from '@sesame/entities';
import { Access, CurrentOrganization } from '../access/access.decorator';
import { ManagementErrors } from '../access/management-errors';
import { Audited, fromAnswer, fromParam } from '../audit/audited.decorator';
import { ApplicationsService } from './applications.service';
import {
  ApplicationQuery,
  ApplicationResponse,
  ApplicationSummary,
  CreateApplicationDto,
  RotateSecretDto,
  UpdateApplicationDto,
} from './dto/application.dto';

class ApplicationPage extends pageOf(ApplicationSummary) {}

const IN_ORGANIZATION = { organization: 'organizationId' } as const;

@ApiTags('Applications')
@Controller({ path: 'organization/:organizationId/application', version: '2' })
export class ApplicationsController {
  constructor(private readonly applications: ApplicationsService) {}

  @Get()
  @Access({ role: 'viewer', ...IN_ORGANIZATION })
  @ApiOperation({ summary: "List the organization's applications (without secrets)" })
  @ApiOkResponse({ type: ApplicationPage })
  @ManagementErrors({ notFound: true })
  list(@CurrentOrganization() organization: Organization, @Query() page: PageQuery) {
    return this.applications.list(organization.id, page);
  }

  @Post()
  @Access({ role: 'admin', ...IN_ORGANIZATION })
  @Audited('application.create', fromAnswer)
  @ApiOperation({ summary: 'Register an application; a web app’s client secret is answered here, once' })
  @ApiCreatedResponse({ type: ApplicationResponse })
  @ManagementErrors({ notFound: true })
  create(@CurrentOrganization() organization: Organization, @Body() body: CreateApplicationDto) {
    return this.applications.create(organization.id, body);
  }

  @Get(':applicationId')
  @Access({ role: 'viewer', ...IN_ORGANIZATION, includeSecret: { role: 'admin', freshSignIn: true } })
  @Audited('application.secret_read', fromParam('applicationId'), { when: 'includeSecret' })
  @ApiOperation({
    summary: 'Read the integration data of an application',
    description:
      'Without `include=secret` the answer has no client secret (`clientSecret: null`). With it, admins, owners and admin keys get the secret, ' +
      'the read is written to the audit log (`application.secret_read`, with who and from where), and a member needs a recent sign-in.',
  })
  @ApiOkResponse({ type: ApplicationResponse })
  @ManagementErrors({ notFound: true })
  get(
    @CurrentOrganization() organization: Organization,
    @UuidParam('applicationId') applicationId: string,
    @Query() query: ApplicationQuery,
  ) {
    return this.applications.get(organization.id, applicationId, query.include === 'secret');
  }

  @Post(':applicationId')
  @HttpCode(200)
  @Access({ role: 'admin', ...IN_ORGANIZATION })
  @Audited('application.update', fromParam('applicationId'))
  @ApiOperation({
    summary: 'Update an application: name, callback URLs, id_token encryption (the answer has no secret)',
    description:
      'Requests after the answer see the new settings on every auth-api instance (within CLIENT_CACHE_SECONDS, 5 s by default, while Redis is away). ' +
      'A link already sent is checked against the new callback URLs when it is used.',
  })
  @ApiOkResponse({ type: ApplicationResponse })
  @ManagementErrors({ notFound: true })
  update(
    @CurrentOrganization() organization: Organization,
    @UuidParam('applicationId') applicationId: string,
    @Body() body: UpdateApplicationDto,
  ) {
    return this.applications.update(organization.id, applicationId, body);
  }

  @Post(':applicationId/rotate_secret')
  @HttpCode(200)
  @Access({ role: 'admin', ...IN_ORGANIZATION, freshSignIn: true })
  @Audited('application.rotate_secret', fromParam('applicationId'))
  @ApiOperation({
    summary: "Replace a web app's client secret (the new one is answered here, once)",
    description:
      'The replaced secret keeps authenticating for `overlapSeconds` (default CLIENT_SECRET_ROTATION_OVERLAP_SECONDS, 86400; 0 stops it at once), ' +
      'so running deployments can switch over; a client still using it gets id_tokens encrypted with it. `revokeAccessTokens` also revokes every access token of the application. ' +
      'Every auth-api instance drops its cached copy at once (within CLIENT_CACHE_SECONDS, 5 s by default, while Redis is away). Native applications have no secret: 400 `no_client_secret`.',
  })
  @ApiBody({ type: RotateSecretDto, required: false })
  @ApiOkResponse({ type: ApplicationResponse })
  @ManagementErrors({ notFound: true })
  rotateSecret(
    @CurrentOrganization() organization: Organization,
    @UuidParam('applicationId') applicationId: string,
    @Body() body: RotateSecretDto,
  ) {
    return this.applications.rotateSecret(organization.id, applicationId, body ?? {});
  }

  @Delete(':applicationId')
  @HttpCode(204)
  @Access({ role: 'admin', ...IN_ORGANIZATION })
  @Audited('application.delete', fromParam('applicationId'))
  @ApiOperation({ summary: 'Delete an application and its tokens' })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ManagementErrors({ notFound: true })
  async delete(@CurrentOrganization() organization: Organization, @UuidParam('applicationId') applicationId: string): Promise<void> {
    await this.applications.delete(organization.id, applicationId);
  }
}

import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { pageOf, UuidParam } from '@sesame/common';
import { AllowMembers, CurrentPrincipal, Principal } from '@sesame/guards';
import { ManagementErrors } from '../access/management-errors';
import { OrganizationsService } from '../organizations/organizations.service';
import { LoginActivityQuery, LoginActivityResponse } from './login-activity.dto';
import { LoginActivityService } from './login-activity.service';

class LoginActivityPage extends pageOf(LoginActivityResponse) {}

@ApiTags('Login activity')
@Controller({ path: 'organization/:organizationId/login_attempt', version: '2' })
export class LoginActivityController {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly activity: LoginActivityService,
  ) {}

  @Get()
  @AllowMembers('viewer')
  @ApiOperation({
    summary: "The organization's login attempts, newest first, with the delivery of each login e-mail",
    description: 'Filters combine. Tenant key, that organization’s key, or any member.',
  })
  @ApiOkResponse({ type: LoginActivityPage })
  @ManagementErrors({ notFound: true })
  async list(@CurrentPrincipal() principal: Principal, @UuidParam('organizationId') organizationId: string, @Query() query: LoginActivityQuery) {
    await this.organizations.findReachable(principal, organizationId);
    return this.activity.list(organizationId, query);
  }
}

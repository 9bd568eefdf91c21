import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { pageOf } from '@sesame/common';
import { Organization } from '@sesame/entities';
import { Access, CurrentOrganization } from '../access/access.decorator';
import { ManagementErrors } from '../access/management-errors';
import { LoginActivityQuery, LoginActivityResponse } from './login-activity.dto';
import { LoginActivityService } from './login-activity.service';

class LoginActivityPage extends pageOf(LoginActivityResponse) {}

@ApiTags('Login activity')
@Controller({ path: 'organization/:organizationId/login_attempt', version: '2' })
export class LoginActivityController {
  constructor(private readonly activity: LoginActivityService) {}

  @Get()
  @Access({ role: 'viewer', organization: 'organizationId' })
  @ApiOperation({
    summary: "The organization's login attempts, newest first, with the delivery of each login e-mail",
    description: 'Filters combine. Tenant key, that organization’s key, or any member.',
  })
  @ApiOkResponse({ type: LoginActivityPage })
  @ManagementErrors({ notFound: true })
  list(@CurrentOrganization() organization: Organization, @Query() query: LoginActivityQuery) {
    return this.activity.list(organization.id, query);
  }
}

import { Controller, Get } from '@nestjs/common';
import {
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
  ApiSecurity,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { ProblemDetails } from '@sesame/common';
import { CurrentPerson, PersonRoute, SignedInPerson } from '@sesame/guards';
import { MeResponse } from './dto/member.dto';
import { MembersService } from './members.service';

@ApiTags('Members')
@Controller({ path: 'me', version: '2' })
export class MeController {
  constructor(private readonly members: MembersService) {}

  @Get()
  @PersonRoute()
  @ApiSecurity('member')
  @ApiOperation({ summary: 'The signed-in person and the tenants they are a member of (console access token, no Sesame-Tenant)' })
  @ApiOkResponse({ type: MeResponse })
  @ApiUnauthorizedResponse({
    type: ProblemDetails,
    description: 'No token, or a console access token that is not valid (`invalid_member_token`).',
  })
  @ApiForbiddenResponse({ type: ProblemDetails, description: 'An API key: only a console access token can ask (`member_token_required`).' })
  @ApiTooManyRequestsResponse({ type: ProblemDetails, description: "The person's own limit is used up (`rate_limited`)." })
  async me(@CurrentPerson() person: SignedInPerson): Promise<MeResponse> {
    return { email: person.email, memberships: await this.members.memberships(person) };
  }
}

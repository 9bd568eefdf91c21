import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { pageOf, PageQuery, ProblemDetails, RequestId, UuidParam } from '@sesame/common';
import { AllowMembers, CurrentPrincipal, Principal } from '@sesame/guards';
import { requireTenantKey } from '../access/access';
import { actorOf } from '../access/actor';
import { ManagementErrors } from '../access/management-errors';
import { Audited, fromAnswer, fromParam } from '../audit/audited.decorator';
import { InviteMemberDto, MemberResponse, UpdateMemberDto } from './dto/member.dto';
import { MembersService } from './members.service';

class MemberPage extends pageOf(MemberResponse) {}

const LAST_OWNER = { type: ProblemDetails, description: "The tenant's last owner cannot be removed or demoted (`last_owner`)." };

@ApiTags('Members')
@Controller({ path: 'tenant/member', version: '2' })
export class MembersController {
  constructor(private readonly members: MembersService) {}

  @Get()
  @AllowMembers('viewer')
  @ApiOperation({ summary: "List the tenant's members (tenant key, any member)" })
  @ApiOkResponse({ type: MemberPage })
  @ManagementErrors()
  list(@CurrentPrincipal() principal: Principal, @Query() page: PageQuery) {
    return this.members.list(requireTenantKey(principal).tenantId, page);
  }

  @Post()
  @AllowMembers('owner')
  @Audited('member.invite', fromAnswer)
  @ApiOperation({ summary: 'Invite a member: they are e-mailed a link to the console (tenant key, owners)' })
  @ApiCreatedResponse({ type: MemberResponse })
  @ApiConflictResponse({ type: ProblemDetails, description: 'The address is already a member (`member_exists`).' })
  @ApiServiceUnavailableResponse({ type: ProblemDetails, description: 'The invitation cannot be queued (`mail_queue_unavailable`); nothing was changed.' })
  @ManagementErrors()
  invite(@CurrentPrincipal() principal: Principal, @Body() body: InviteMemberDto, @RequestId() requestId: string | null) {
    const { tenantId } = requireTenantKey(principal);
    return this.members.invite(tenantId, body, actorOf(principal).name, requestId);
  }

  @Post(':memberId')
  @HttpCode(200)
  @AllowMembers('owner')
  @Audited('member.update', fromParam('memberId'))
  @ApiOperation({ summary: "Change a member's role (tenant key, owners)" })
  @ApiOkResponse({ type: MemberResponse })
  @ApiConflictResponse(LAST_OWNER)
  @ManagementErrors({ notFound: true })
  update(@CurrentPrincipal() principal: Principal, @UuidParam('memberId') memberId: string, @Body() body: UpdateMemberDto) {
    return this.members.changeRole(requireTenantKey(principal).tenantId, memberId, body.role);
  }

  @Delete(':memberId')
  @HttpCode(204)
  @AllowMembers('owner')
  @Audited('member.remove', fromParam('memberId'))
  @ApiOperation({ summary: 'Remove a member (tenant key, owners); their console access ends within API_KEY_CACHE_SECONDS' })
  @ApiNoContentResponse({ description: 'Removed.' })
  @ApiConflictResponse(LAST_OWNER)
  @ManagementErrors({ notFound: true })
  async remove(@CurrentPrincipal() principal: Principal, @UuidParam('memberId') memberId: string): Promise<void> {
    await this.members.remove(requireTenantKey(principal).tenantId, memberId);
  }
}

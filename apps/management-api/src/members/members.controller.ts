import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { pageOf, PageQuery, ProblemDetails, RequestId, UuidParam } from '@sesame/common';
import { CurrentPrincipal, TenantScopedPrincipal } from '@sesame/guards';
import { Access, CurrentTenantId } from '../access/access.decorator';
import { actorOf } from '../access/actor';
import { AuditContext, CurrentAuditContext } from '../audit/audit-context';
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
  @Access({ role: 'viewer' })
  @ApiOperation({ summary: "List the tenant's members (tenant keys, any member)" })
  @ApiOkResponse({ type: MemberPage })
  @ManagementErrors()
  list(@CurrentTenantId() tenantId: string, @Query() page: PageQuery) {
    return this.members.list(tenantId, page);
  }

  @Post()
  @Access({ role: 'owner', freshSignIn: true })
  @Audited('member.invite', fromAnswer)
  @ApiOperation({ summary: 'Invite a member: they are e-mailed a link to the console (owner keys, owners)' })
  @ApiCreatedResponse({ type: MemberResponse })
  @ApiConflictResponse({ type: ProblemDetails, description: 'The address is already a member (`member_exists`).' })
  @ApiServiceUnavailableResponse({
    type: ProblemDetails,
    description: 'The invitation cannot be queued (`mail_queue_unavailable`); nothing was changed.',
  })
  @ManagementErrors()
  invite(@CurrentPrincipal() principal: TenantScopedPrincipal, @Body() body: InviteMemberDto, @RequestId() requestId: string | null) {
    return this.members.invite(principal.tenantId, body, actorOf(principal).name, requestId);
  }

  @Post(':memberId')
  @HttpCode(200)
  @Access({ role: 'owner', freshSignIn: true })
  @Audited('member.update', fromParam('memberId'))
  @ApiOperation({ summary: "Change a member's role (owner keys, owners); a demoted member's keys are capped at the new role" })
  @ApiOkResponse({ type: MemberResponse })
  @ApiConflictResponse(LAST_OWNER)
  @ManagementErrors({ notFound: true })
  update(
    @CurrentTenantId() tenantId: string,
    @UuidParam('memberId') memberId: string,
    @Body() body: UpdateMemberDto,
    @CurrentAuditContext() audit: AuditContext,
  ) {
    return this.members.changeRole(tenantId, memberId, body.role, audit);
  }

  @Delete(':memberId')
  @HttpCode(204)
  @Access({ role: 'owner', freshSignIn: true })
  @Audited('member.remove', fromParam('memberId'))
  @ApiOperation({
    summary:
      'Remove a member (owner keys, owners); the keys they created are revoked with them, and their console access ends at once (within API_KEY_CACHE_SECONDS on other instances while Redis is away)',
  })
  @ApiNoContentResponse({ description: 'Removed.' })
  @ApiConflictResponse(LAST_OWNER)
  @ManagementErrors({ notFound: true })
  async remove(
    @CurrentTenantId() tenantId: string,
    @UuidParam('memberId') memberId: string,
    @CurrentAuditContext() audit: AuditContext,
  ): Promise<void> {
    await this.members.remove(tenantId, memberId, audit);
  }
}

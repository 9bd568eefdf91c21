import { Controller, Delete, Get, HttpCode } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { UuidParam } from '@sesame/common';
import { Organization } from '@sesame/entities';
import { Access, CurrentOrganization } from '../access/access.decorator';
import { ManagementErrors } from '../access/management-errors';
import { Audited, fromParam } from '../audit/audited.decorator';
import { PasskeyList } from './dto/passkey.dto';
import { UserPasskeysService } from './user-passkeys.service';

/** A user's passkeys: read by anyone who may read the user, removed by whoever may block or delete them. */
@ApiTags('Users')
@Controller({ path: 'organization/:organizationId/user/:userId/passkey', version: '2' })
export class UserPasskeysController {
  constructor(private readonly passkeys: UserPasskeysService) {}

  @Get()
  @Access({ role: 'viewer', organization: 'organizationId' })
  @ApiOperation({ summary: "List the user's passkeys, oldest first" })
  @ApiOkResponse({ type: PasskeyList })
  @ManagementErrors({ notFound: true })
  list(@CurrentOrganization() organization: Organization, @UuidParam('userId') userId: string) {
    return this.passkeys.list(organization.id, userId);
  }

  @Delete(':passkeyId')
  @HttpCode(204)
  @Access({ role: 'admin', organization: 'organizationId' })
  @Audited('passkey.remove', fromParam('passkeyId'))
  @ApiOperation({ summary: 'Remove a passkey of the user: it stops signing in at once (webhook event passkey.removed)' })
  @ApiNoContentResponse({ description: 'Removed.' })
  @ManagementErrors({ notFound: true })
  async remove(
    @CurrentOrganization() organization: Organization,
    @UuidParam('userId') userId: string,
    @UuidParam('passkeyId') passkeyId: string,
  ): Promise<void> {
    await this.passkeys.remove(organization, userId, passkeyId);
  }
}

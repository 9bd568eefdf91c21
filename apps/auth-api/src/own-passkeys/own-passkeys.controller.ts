import { Controller, Delete, Get, Header, Headers, HttpCode } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { RequestId, UuidParam } from '@sesame/common';
import { bearerToken } from '@sesame/guards';
import { ClientIp } from '@sesame/throttler';
import { OAuthError } from '../oauth/oauth-error.dto';
import { OwnPasskeyListResponse } from './dto/own-passkey.dto';
import { OwnPasskeysService } from './own-passkeys.service';

const TOKEN_REFUSED = ApiUnauthorizedResponse({
  type: OAuthError,
  description: 'Missing, invalid, expired or revoked token, or a blocked user (RFC 6750 WWW-Authenticate).',
});

/** /v1/passkeys: the signed-in user's own passkeys, with their access token (an application's account page calls it for them). */
@ApiTags('Passkeys')
@ApiBearerAuth('accessToken')
@Controller({ path: 'passkeys', version: '1' })
export class OwnPasskeysController {
  constructor(private readonly passkeys: OwnPasskeysService) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: "The token's user's passkeys (name, device type, created, last used)" })
  @ApiOkResponse({ type: OwnPasskeyListResponse })
  @TOKEN_REFUSED
  list(@Headers('authorization') authorization: string | undefined, @ClientIp() ip: string, @RequestId() requestId: string | null) {
    return this.passkeys.list({ token: bearerToken(authorization), ip, requestId });
  }

  @Delete(':passkeyId')
  @HttpCode(204)
  @ApiOperation({ summary: "Removes one of the token's user's passkeys: it stops signing in at once (audited, `passkey.removed`)" })
  @ApiNoContentResponse({ description: 'Removed.' })
  @ApiNotFoundResponse({ type: OAuthError, description: '`not_found`: no passkey of this user has that id.' })
  @TOKEN_REFUSED
  async remove(
    @Headers('authorization') authorization: string | undefined,
    @ClientIp() ip: string,
    @RequestId() requestId: string | null,
    @UuidParam('passkeyId') passkeyId: string,
  ): Promise<void> {
    await this.passkeys.remove({ token: bearerToken(authorization), ip, requestId }, passkeyId);
  }
}

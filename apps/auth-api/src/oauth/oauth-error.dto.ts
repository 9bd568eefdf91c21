import { ApiProperty } from '@nestjs/swagger';
import { oauthErrorCodes } from '@sesame/common';

/** RFC 6749 §5.2 error response, as every auth API JSON endpoint answers errors. */
export class OAuthError {
  @ApiProperty({
    example: 'invalid_request',
    enum: oauthErrorCodes(),
    description: "RFC 6749 error code, or one of Sesame's own (see docs/errors.md).",
  })
  error: string;

  @ApiProperty({ example: 'redirect_uri is not allowed for this application' })
  error_description: string;
}

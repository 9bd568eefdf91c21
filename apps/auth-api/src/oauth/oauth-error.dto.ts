import { ApiProperty } from '@nestjs/swagger';

/** RFC 6749 §5.2 error response, as every auth API JSON endpoint answers errors. */
export class OAuthError {
  @ApiProperty({ example: 'invalid_request' })
  error: string;

  @ApiProperty({ example: 'redirect_uri is not allowed for this application' })
  error_description: string;
}

import { applyDecorators } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { ProblemDetails } from '@sesame/common';

/** The errors every management endpoint can answer, documented once (member tokens are documented by @Access). */
export function ManagementErrors(options: { notFound?: boolean } = {}) {
  return applyDecorators(
    ApiBearerAuth('apiKey'),
    ApiUnauthorizedResponse({
      type: ProblemDetails,
      description:
        'Missing, malformed, unknown or revoked API key (`missing_api_key`, `invalid_api_key`), or a console access token that is not valid (`invalid_member_token`).',
    }),
    ApiForbiddenResponse({
      type: ProblemDetails,
      description:
        'This kind of key may not call this endpoint (`platform_key_required`, `tenant_key_required`), the key or member has too weak a role (`insufficient_role`), ' +
        'the member is not one of the tenant (`not_a_member`), or a member needs a recent sign-in for this change (`reauthentication_required`).',
    }),
    ApiTooManyRequestsResponse({
      type: ProblemDetails,
      description: "The tenant's plan limit, or the member's own limit, is used up (`rate_limited`).",
    }),
    ApiBadRequestResponse({
      type: ProblemDetails,
      description: 'Invalid input (see `errors`), or a member token without a valid `Sesame-Tenant` header (`tenant_header_required`).',
    }),
    ...(options.notFound ? [ApiNotFoundResponse({ type: ProblemDetails, description: "Not found, or outside the caller's reach." })] : []),
  );
}

import { applyDecorators } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiForbiddenResponse, ApiNotFoundResponse, ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ProblemDetails } from '@sesame/common';

/** The errors every management endpoint can answer, documented once. */
export function ManagementErrors(options: { notFound?: boolean; badRequest?: boolean } = {}) {
  return applyDecorators(
    ApiBearerAuth('apiKey'),
    ApiUnauthorizedResponse({ type: ProblemDetails, description: 'Missing, malformed, unknown or revoked API key.' }),
    ApiForbiddenResponse({ type: ProblemDetails, description: 'This kind of key may not call this endpoint.' }),
    ApiTooManyRequestsResponse({ type: ProblemDetails, description: "The tenant's plan limit is used up." }),
    ...(options.badRequest === false ? [] : [ApiBadRequestResponse({ type: ProblemDetails, description: 'Invalid input; see `errors`.' })]),
    ...(options.notFound ? [ApiNotFoundResponse({ type: ProblemDetails, description: "Not found, or outside the key's reach." })] : []),
  );
}

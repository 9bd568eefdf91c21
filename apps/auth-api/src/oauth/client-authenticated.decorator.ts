import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiBasicAuth, ApiConsumes, ApiSecurity } from '@nestjs/swagger';
import { ClientAuthGuard, ClientAuthMethod, ClientAuthMethods } from '@sesame/guards';
import { EndpointLimit, EndpointThrottlerGuard } from '@sesame/throttler';
import { FormBodyGuard } from './form-body.guard';

/**
 * A route an OAuth client calls with its credentials: the client is authenticated by one of
 * `methods` (default HTTP Basic), then counted against its tenant's per-endpoint limit (not the
 * plan's). `form`: an RFC 6749 token endpoint, whose body must be form-encoded (checked first).
 * Its OpenAPI security is the `client` scheme (HTTP Basic); where the client may instead send its
 * credentials in the form (client_secret_post) or only its client_id (none), which OpenAPI cannot
 * describe as a scheme, the empty requirement `{}` is the alternative.
 */
export function ClientAuthenticated(options: { methods?: ClientAuthMethod[]; form?: boolean } = {}) {
  const { methods = ['client_secret_basic'], form = false } = options;
  return applyDecorators(
    UseGuards(...(form ? [FormBodyGuard] : []), ClientAuthGuard, EndpointThrottlerGuard),
    EndpointLimit('tenant'),
    ClientAuthMethods(...methods),
    ApiBasicAuth('client'),
    ...(methods.some((method) => method !== 'client_secret_basic') ? [ApiSecurity({})] : []),
    ...(form ? [ApiConsumes('application/x-www-form-urlencoded')] : []),
  );
}

import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiBasicAuth, ApiConsumes } from '@nestjs/swagger';
import { ClientAuthGuard, ClientAuthMethod, ClientAuthMethods } from '@sesame/guards';
import { EndpointLimit, EndpointThrottlerGuard } from '@sesame/throttler';
import { FormBodyGuard } from './form-body.guard';

/**
 * A route an OAuth client calls with its credentials: the client is authenticated by one of
 * `methods` (default HTTP Basic), then counted against its tenant's per-endpoint limit (not the
 * plan's). `form`: an RFC 6749 token endpoint, whose body must be form-encoded (checked first).
 */
export function ClientAuthenticated(options: { methods?: ClientAuthMethod[]; form?: boolean } = {}) {
  const { methods = ['client_secret_basic'], form = false } = options;
  return applyDecorators(
    UseGuards(...(form ? [FormBodyGuard] : []), ClientAuthGuard, EndpointThrottlerGuard),
    EndpointLimit('tenant'),
    ClientAuthMethods(...methods),
    ApiBasicAuth('client'),
    ...(form ? [ApiConsumes('application/x-www-form-urlencoded')] : []),
  );
}

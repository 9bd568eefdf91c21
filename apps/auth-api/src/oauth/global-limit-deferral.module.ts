import { ExecutionContext, Global, Injectable, Module, Type } from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { ClientAuthGuard } from '@sesame/guards';
import { EndpointThrottlerGuard, GLOBAL_LIMIT_DEFERRAL, GlobalLimitDeferral } from '@sesame/throttler';
import { ClientsModule } from '../clients/clients.module';
import { FormBodyGuard, isFormBody } from './form-body.guard';

/**
 * The per-IP global limit waits for the tenant's endpoint limit, and both go to Redis in one script
 * call, on a @ClientAuthenticated route when nothing before EndpointThrottlerGuard can answer the
 * request or send it to Postgres: FormBodyGuard passes the body's type, and ClientAuthGuard passes
 * the credentials from its client cache (a client the cache holds, its secret right). Any other
 * request (a wrong secret, an unknown or uncached client, another body) is counted against the
 * global limit first, as before: guessing secrets or client ids is refused at the global limit.
 */
@Injectable()
class CachedClientDeferral implements GlobalLimitDeferral {
  constructor(
    private readonly reflector: Reflector,
    private readonly clients: ClientAuthGuard,
  ) {}

  mayWait(context: ExecutionContext): boolean {
    const guards = this.guardsBeforeEndpointLimit(context);
    if (!guards?.includes(ClientAuthGuard) || guards.some((guard) => guard !== ClientAuthGuard && guard !== FormBodyGuard)) return false;
    if (guards.includes(FormBodyGuard) && !isFormBody(context)) return false;
    return this.clients.passesFromCache(context);
  }

  /** The route's own guards (the controller's, then the handler's) that run before EndpointThrottlerGuard; null when it has none. */
  private guardsBeforeEndpointLimit(context: ExecutionContext): Type[] | null {
    const guards = [
      ...(this.reflector.get<Type[] | undefined>(GUARDS_METADATA, context.getClass()) ?? []),
      ...(this.reflector.get<Type[] | undefined>(GUARDS_METADATA, context.getHandler()) ?? []),
    ];
    const at = guards.indexOf(EndpointThrottlerGuard);
    return at < 0 ? null : guards.slice(0, at);
  }
}

/** Provides GLOBAL_LIMIT_DEFERRAL to GlobalIpThrottlerGuard (global: the guard lives in ThrottlingModule). */
@Global()
@Module({
  imports: [ClientsModule],
  providers: [{ provide: GLOBAL_LIMIT_DEFERRAL, useClass: CachedClientDeferral }],
  exports: [GLOBAL_LIMIT_DEFERRAL],
})
export class GlobalLimitDeferralModule {}

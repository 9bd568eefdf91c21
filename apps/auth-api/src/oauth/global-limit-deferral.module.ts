import { ExecutionContext, Global, Injectable, Module, Type } from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { RouteMemo } from '@sesame/common';
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
  /**
   * Whether a route may defer: its own guards before EndpointThrottlerGuard (the controller's, then
   * the handler's) are ClientAuthGuard and at most FormBodyGuard. Null when it may not.
   */
  private readonly routes = new RouteMemo((handler, controller) => {
    const guards = [
      ...(this.reflector.get<Type[] | undefined>(GUARDS_METADATA, controller) ?? []),
      ...(this.reflector.get<Type[] | undefined>(GUARDS_METADATA, handler) ?? []),
    ];
    const before = guards.slice(0, Math.max(0, guards.indexOf(EndpointThrottlerGuard)));
    if (!before.includes(ClientAuthGuard) || before.some((guard) => guard !== ClientAuthGuard && guard !== FormBodyGuard)) return null;
    return { formBody: before.includes(FormBodyGuard) };
  });

  constructor(
    private readonly reflector: Reflector,
    private readonly clients: ClientAuthGuard,
  ) {}

  mayWait(context: ExecutionContext): boolean {
    const route = this.routes.of(context);
    if (!route || (route.formBody && !isFormBody(context))) return false;
    return this.clients.passesFromCache(context);
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

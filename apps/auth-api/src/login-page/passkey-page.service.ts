import { Injectable } from '@nestjs/common';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { readCookie } from '@sesame/common';
import { ATTEMPT_COOKIE } from '../direct-auth/login-approval.service';
import { HostedRequests } from './hosted-requests';
import { PasskeyRegistrationService } from './passkey-registration.service';
import { PasskeySignedIn, PasskeySignInService } from './passkey-sign-in.service';

export interface PasskeyBrowser {
  cookieHeader: string | undefined;
  requestId?: string | null;
  userAgent?: string;
  ip?: string;
}

/** The passkey JSON endpoints of the hosted page: the request and CSRF checks of its forms, then the ceremony's service. */
@Injectable()
export class PasskeyPageService {
  constructor(
    private readonly hosted: HostedRequests,
    private readonly signIn: PasskeySignInService,
    private readonly registration: PasskeyRegistrationService,
  ) {}

  async signInOptions(body: Record<string, unknown>, browser: PasskeyBrowser) {
    return this.signIn.options(await this.signInRequest(body, browser));
  }

  async signInVerify(
    body: Record<string, unknown>,
    response: AuthenticationResponseJSON,
    browser: PasskeyBrowser,
  ): Promise<PasskeySignedIn> {
    return this.signIn.verify(await this.signInRequest(body, browser), response);
  }

  async registrationOptions(body: { client_id: string; registration: string; csrf: string }, browser: PasskeyBrowser) {
    const context = await this.hosted.client(body.client_id);
    return this.registration.options(context, body.registration, this.registrationBrowser(body, browser));
  }

  async registrationVerify(
    body: { client_id: string; registration: string; csrf: string },
    response: RegistrationResponseJSON,
    browser: PasskeyBrowser,
  ): Promise<void> {
    const context = await this.hosted.client(body.client_id);
    await this.registration.verify(context, body.registration, response, this.registrationBrowser(body, browser));
  }

  private async signInRequest(body: Record<string, unknown>, browser: PasskeyBrowser) {
    const { context, request } = await this.hosted.checkJson(body);
    const csrfCookie = this.hosted.requireCsrf(body, browser.cookieHeader);
    return {
      context,
      request,
      csrfCookie,
      requestId: browser.requestId ?? null,
      userAgent: browser.userAgent ?? null,
      ip: browser.ip && browser.ip !== 'unknown' ? browser.ip : null,
    };
  }

  private registrationBrowser(body: { csrf: string }, browser: PasskeyBrowser) {
    return {
      csrfCookie: this.hosted.requireCsrf(body, browser.cookieHeader),
      attemptCookie: readCookie(browser.cookieHeader, ATTEMPT_COOKIE),
      requestId: browser.requestId ?? null,
      userAgent: browser.userAgent ?? null,
      ip: browser.ip && browser.ip !== 'unknown' ? browser.ip : null,
    };
  }
}

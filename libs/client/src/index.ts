/**
 * @sesame/client: Sesame for Node servers with Express-style (or node:http) requests and responses.
 * This file is the package's only public surface.
 */
export { SesameClient, createSesameClient } from './client';
export type { SesameClientOptions } from './client';
export { redirectResponse } from './types';
export type {
  AuthenticateDirectConfig,
  CallbackContext,
  CallbackHooks,
  CallbackResult,
  CompletedLogin,
  EmailTranslations,
  LoginAttempt,
  LoginStatus,
  PasskeyRegistrationOptions,
  PasskeySignInConfig,
  PasskeySignInOptions,
  RegisteredPasskey,
  ReplacementResponse,
  SesameUser,
  UserPasskey,
} from './types';
export type { RequestLike, ResponseLike } from './cookies';
export { SesameError, RateLimitedError, InvalidStateError, ProviderError } from './errors';
export type { InvalidStateReason } from './errors';
export type { FetchFunction, FetchResponse, RetryOptions } from '@sesame/client-core';
export { createSignedState, verifySignedState } from './state';

/**
 * @sesame/client-react-native: Sesame for React Native apps (hosted login page with PKCE, access
 * token in secure storage). This file is the package's only public surface.
 */
export { SesameNativeClient, createSesameNativeClient } from './client';
export type { LoginOptions, OpenAuthSession, SesameNativeClientOptions, SesameUser, Session } from './client';
export { MemoryStorage } from './storage';
export type { SecureStorage } from './storage';
export { SesameError, RateLimitedError, InvalidStateError, ProviderError } from './errors';
export type { InvalidStateReason } from './errors';
export type { CryptoProvider, FetchFunction, RetryOptions } from '@sesame/client-core';

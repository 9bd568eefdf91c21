/**
 * @sesame/client-core: what @sesame/client and @sesame/client-react-native share (HTTP with
 * timeout and retries, errors, wire types, PKCE). It is not a package of its own: each SDK's build
 * compiles it into its dist (see docs/decisions.md), so it must run on Node and React Native alike.
 */
export { SesameApi, userOf } from './api';
export type { ClientCredentials, SesameUser, TokenResponse, UserInfoResponse } from './api';
export { asciiBytes, base64url, formComponent, formDecode, formEncode } from './encoding';
export { InvalidStateError, ProviderError, RateLimitedError, SesameError } from './errors';
export { DEFAULT_TIMEOUT_MS, providerError, SesameHttp } from './http';
export type { HttpAnswer, HttpOptions } from './http';
export { createPkcePair, randomToken } from './pkce';
export { globalFetch, webCrypto } from './platform';
export type { CryptoProvider, FetchFunction, FetchInit, FetchResponse } from './platform';
export { backoffDelay, DEFAULT_RETRY, retryAfterSeconds } from './retry';
export type { RetryOptions } from './retry';

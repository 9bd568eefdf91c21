import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The header that carries a request's id in and out (and from the gateway to the apps). */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** Where the id is kept on Node's request object (Express's request is that object; Fastify's has it as `raw`). */
const REQUEST_ID = Symbol.for('sesame.requestId');

/** An incoming id is reused only if it is short and harmless in logs and headers. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export function isSafeRequestId(value: unknown): value is string {
  return typeof value === 'string' && SAFE_REQUEST_ID.test(value);
}

type RawRequest = IncomingMessage & { [REQUEST_ID]?: string; id?: unknown };

/** Node's request object under a platform's request: Fastify's `request.raw`, else the request itself (Express). */
export function rawRequest(request: unknown): RawRequest {
  const raw = (request as { raw?: unknown } | null)?.raw;
  return (raw && typeof raw === 'object' ? raw : request) as RawRequest;
}

/**
 * Gives a request its id once, as early as possible: the caller's X-Request-Id when it looks safe,
 * else a new UUID. The id is echoed in the response's X-Request-Id and bound to every log line of
 * the request (and, through the mail job, to the worker's lines).
 */
export function assignRequestId(request: IncomingMessage, response: ServerResponse): string {
  const raw = request as RawRequest;
  if (raw[REQUEST_ID]) return raw[REQUEST_ID];
  const incoming = request.headers['x-request-id'];
  const id = isSafeRequestId(incoming) ? incoming : randomUUID();
  raw[REQUEST_ID] = id;
  if (!response.headersSent) response.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/** The id of a request (Express or Fastify request, or Node's), or null outside an HTTP request. */
export function requestIdOf(request: unknown): string | null {
  if (!request || typeof request !== 'object') return null;
  return rawRequest(request)[REQUEST_ID] ?? null;
}

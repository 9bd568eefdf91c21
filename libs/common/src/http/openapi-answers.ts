import { Type } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import type { OpenAPIObject } from '@nestjs/swagger';
import { PROBLEM_CONTENT_TYPE, ProblemDetails } from '../problems/problem-details';

type Schema = Record<string, unknown>;
type Response = { description: string; headers?: Record<string, unknown>; content?: Record<string, { schema: Schema }> };
type Operation = { requestBody?: unknown; responses: Record<string, Response>; [extension: `x-${string}`]: unknown };

/** How an app renders its errors: the media type and model of every error answer it documents. */
export interface ErrorBody {
  mediaType: string;
  model: Type;
}

export const PROBLEM_BODY: ErrorBody = { mediaType: PROBLEM_CONTENT_TYPE, model: ProblemDetails };
const HTML_PAGE = { 'text/html': { schema: { type: 'string', description: 'An error page.' } } };
const PROBLEM_REF = schemaRef(ProblemDetails);

function schemaRef(model: Type): Schema {
  return { $ref: `#/components/schemas/${model.name}` };
}

const ERROR_BODY_EXTENSION = 'x-sesame-error-body';

/** Marks a controller (or handler) whose errors are HTML pages rather than the app's JSON errors. */
export const ApiErrorPages = () => ApiExtension(ERROR_BODY_EXTENSION, 'html');

const seconds = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

const RETRY_AFTER = { ...seconds('Seconds to wait before retrying.'), required: true };

/** The headers of a refused request: when to retry, and (from a rate-limit window) the window's state. */
const RATE_LIMITED_HEADERS = {
  'Retry-After': RETRY_AFTER,
  'RateLimit-Limit': seconds('Requests allowed in the tightest window (when a rate-limit window refused the request).'),
  'RateLimit-Remaining': seconds('Requests left in that window: 0.'),
  'RateLimit-Reset': seconds('Seconds until that window has room again.'),
  'RateLimit-Policy': { description: 'Every window of the limit, as `<limit>;w=<seconds>`, comma-separated.', schema: { type: 'string' } },
};

/**
 * The answers every route can give besides its own, so a generated client knows them all:
 * - 429 with Retry-After (and RateLimit-* from a limit window): every route is under the per-IP
 *   limit or a limit of its own;
 * - 503 with Retry-After: every route needs Postgres or Redis, and answers 503 while one is down;
 * - 400, 413 and 415 on every route with a request body: malformed, too large, or another
 *   content type than it consumes.
 * Every error answer documents the app's error body (RFC 9457 problem, RFC 6749 error) besides a
 * schema of its own; a problem documented as `application/json` moves to its real media type,
 * `application/problem+json`. Routes that render error pages (@ApiErrorPages()) answer errors as
 * pages, except a body refused before it reaches them (400, 413, 415), which gets the app's body.
 */
export function documentCommonAnswers(document: OpenAPIObject, errorBody: ErrorBody): OpenAPIObject {
  const appBody = { [errorBody.mediaType]: { schema: schemaRef(errorBody.model) } };
  for (const methods of Object.values(document.paths)) {
    for (const operation of Object.values(methods as Record<string, Operation>)) {
      const pages = operation[ERROR_BODY_EXTENSION] === 'html';
      delete operation[ERROR_BODY_EXTENSION];
      addAnswers(operation);
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!/^[45]/.test(status)) continue;
        const refusedBody = BODY_REFUSALS.includes(status);
        response.content = pages ? { ...HTML_PAGE, ...(refusedBody ? appBody : {}) } : { ...appBody, ...ownContent(response.content) };
      }
    }
  }
  return document;
}

const BODY_REFUSALS = ['400', '413', '415'];

function addAnswers(operation: Operation): void {
  const responses = operation.responses;
  responses['429'] = withHeaders(
    responses['429'] ?? { description: 'Too many requests (`rate_limited`): retry after `Retry-After` seconds.' },
    RATE_LIMITED_HEADERS,
  );
  responses['503'] = withHeaders(
    responses['503'] ?? {
      description: 'A dependency (Postgres or Redis) is unavailable right now (`service_unavailable`); nothing was changed.',
    },
    { 'Retry-After': RETRY_AFTER },
  );
  if (!operation.requestBody) return;
  responses['400'] ??= { description: 'The body is malformed or invalid (`malformed_body`, `validation_failed`).' };
  responses['413'] ??= { description: 'The body is too large (`payload_too_large`).' };
  responses['415'] ??= { description: 'The body is not of a content type this route consumes (`unsupported_media_type`).' };
}

function withHeaders(response: Response, headers: Record<string, unknown>): Response {
  return { ...response, headers: { ...headers, ...response.headers } };
}

/** A route's own error schema (e.g. a health report, an OAuth error with extra fields), problems left out. */
function ownContent(content: Response['content']): Response['content'] {
  return Object.fromEntries(Object.entries(content ?? {}).filter(([, { schema }]) => schema.$ref !== PROBLEM_REF.$ref));
}

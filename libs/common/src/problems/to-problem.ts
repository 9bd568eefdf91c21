import { HttpException, HttpStatus, Logger } from '@nestjs/common';
import { ErrorCode } from './error-codes';
import { problem, ProblemException } from './problem.exception';

const logger = new Logger('Errors');

const CODES_BY_STATUS: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  408: 'request_timeout',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable_entity',
  429: 'rate_limited',
  503: 'service_unavailable',
};

/**
 * Turns anything thrown during a request into a ProblemException. Framework errors (unknown
 * route, malformed JSON, oversized body) keep their status but get a stable code; anything
 * unexpected becomes an opaque 500 and is logged here, never shown to the client.
 */
export function toProblem(error: unknown): ProblemException {
  if (error instanceof ProblemException) return error;
  const status = httpStatusOf(error);
  if (status !== undefined && status < 500) {
    // The framework's own status stands, also one without a code of its own (bad_request).
    return new ProblemException(status, codeFor(error, status), clientDetail(error, status));
  }
  if (status === 503)
    return problem('service_unavailable', 'The service is temporarily unavailable', {
      body: healthReport(error),
      headers: { 'Retry-After': '5' },
    });
  if (isLostDatabaseConnection(error)) {
    logger.warn('A database connection was lost during a request');
    return problem('service_unavailable', 'The database is temporarily unavailable; try again shortly', {
      headers: { 'Retry-After': '1' },
    });
  }
  logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  return problem('internal_error', 'An unexpected error occurred');
}

function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof HttpException) return error.getStatus();
  // Body parsers (Express's and Fastify's) throw errors carrying a status or statusCode.
  if (typeof error === 'object' && error !== null) {
    const candidate = (error as { status?: unknown; statusCode?: unknown }).status ?? (error as { statusCode?: unknown }).statusCode;
    if (typeof candidate === 'number' && candidate >= 400 && candidate < 600) return candidate;
  }
  return undefined;
}

function codeFor(error: unknown, status: number): ErrorCode {
  const type = (error as { type?: unknown; code?: unknown }).type ?? (error as { code?: unknown }).code;
  if (type === 'entity.parse.failed' || type === 'FST_ERR_CTP_INVALID_JSON_BODY' || isJsonSyntaxError(error)) return 'malformed_body';
  if (status === HttpStatus.NOT_FOUND) return 'not_found';
  return CODES_BY_STATUS[status] ?? 'bad_request';
}

function clientDetail(error: unknown, status: number): string {
  if (codeFor(error, status) === 'malformed_body') return 'The request body is not valid JSON';
  if (status === HttpStatus.NOT_FOUND) return 'No such route';
  if (status === HttpStatus.PAYLOAD_TOO_LARGE) return 'The request body is too large';
  if (status === HttpStatus.UNSUPPORTED_MEDIA_TYPE) return 'Unsupported content type';
  if (error instanceof HttpException) {
    const response = error.getResponse();
    const message = typeof response === 'string' ? response : (response as { message?: unknown }).message;
    if (typeof message === 'string') return message;
    if (Array.isArray(message)) return message.join('; ');
  }
  return CODES_BY_STATUS[status]?.replace(/_/g, ' ') ?? 'Bad request';
}

function isJsonSyntaxError(error: unknown): boolean {
  return error instanceof SyntaxError || (error instanceof HttpException && /JSON/i.test(String(error.message)));
}

/** SQLSTATE classes 08 (connection exception) and 57P (operator intervention: terminated, shutting down). */
const LOST_CONNECTION_STATES = /^(08|57P0)/;
const LOST_CONNECTION_MESSAGES = /^(Connection terminated|Client has encountered a connection error)|ECONNRESET|ECONNREFUSED/;
const RELEASED_QUERY_RUNNER = new Set(['QueryRunnerProviderAlreadyReleasedError', 'QueryRunnerAlreadyReleasedError']);

/**
 * A Postgres connection that went away mid-request (terminated, restarted, cut): transient, so the
 * client is told to retry (503) rather than given a server error. TypeORM wraps the driver's error.
 */
export function isLostDatabaseConnection(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  // A connection cut while its transaction sat between two statements: TypeORM releases the
  // transaction's query runner on the connection's error, and the next statement meets one of
  // these (an entity manager call the first, a raw query the second).
  if (RELEASED_QUERY_RUNNER.has(String((error as { name?: unknown }).name))) return true;
  const driverError = (error as { driverError?: unknown }).driverError ?? error;
  const { code, message } = driverError as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && LOST_CONNECTION_STATES.test(code)) return true;
  return typeof message === 'string' && LOST_CONNECTION_MESSAGES.test(message);
}

/** A failed health check (Terminus) answers with the state of each dependency by name, as the healthy answer does. */
function healthReport(error: unknown): Record<string, unknown> | undefined {
  if (!(error instanceof HttpException)) return undefined;
  const response = error.getResponse();
  if (
    typeof response !== 'object' ||
    response === null ||
    !('details' in response) ||
    (response as { status?: unknown }).status !== 'error'
  )
    return undefined;
  return response as Record<string, unknown>;
}

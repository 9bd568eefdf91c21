import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { problem } from '../problems/problem.exception';
import { RouteMemo } from './route-memo';

const ACCEPTS_FORM_BODY = 'sesame:accepts-form-body';

/** Marks a handler that reads an HTML form (application/x-www-form-urlencoded) instead of JSON. */
export const AcceptsFormBody = () => SetMetadata(ACCEPTS_FORM_BODY, true);

type RequestHeaders = Record<string, string | string[] | undefined>;

/**
 * A JSON API refuses a body it cannot read with 415 instead of treating it as empty: otherwise an
 * update sent as text/plain, XML or multipart (or without a content type) answers 200 and changes
 * nothing. Requests without a body pass, and so do handlers marked with AcceptsFormBody.
 */
@Injectable()
export class JsonBodyGuard implements CanActivate {
  private readonly acceptsForm = new RouteMemo(
    (handler, controller) => this.reflector.getAllAndOverride<boolean>(ACCEPTS_FORM_BODY, [handler, controller]) === true,
  );

  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const headers = context.switchToHttp().getRequest<{ headers: RequestHeaders }>().headers;
    if (!hasBody(headers)) return true;
    const contentType = String(headers['content-type'] ?? '').toLowerCase();
    if (isJson(contentType)) return true;
    if (this.acceptsForm.of(context) && contentType.startsWith('application/x-www-form-urlencoded')) return true;
    // The same detail as the platform's own refusal of a type it has no parser for (Fastify).
    throw problem('unsupported_media_type', 'Unsupported content type');
  }
}

/** Whether a request has a body to read (a length above zero, or a chunked one). */
export function hasBody(headers: RequestHeaders): boolean {
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
}

/** application/json and the structured +json types (application/problem+json, merge-patch+json, ...). */
function isJson(contentType: string): boolean {
  const mediaType = contentType.split(';')[0].trim();
  return mediaType === 'application/json' || /^application\/[\w.-]+\+json$/.test(mediaType);
}

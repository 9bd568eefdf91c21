import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { map, Observable } from 'rxjs';
import { RenderedPage } from './layout';
import { setPageHeaders } from './page-headers';

/**
 * Sends a handler's RenderedPage as HTML with the page security headers, including its own
 * Content-Security-Policy; handlers that redirect (with @Redirect) get the same headers, and
 * the `headers` they return with the URL.
 * Works through Nest's HTTP adapter, so pages behave the same on Express and Fastify.
 */
@Injectable()
export class PageInterceptor implements NestInterceptor {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const response = context.switchToHttp().getResponse();
    const adapter = this.adapterHost.httpAdapter;
    return next.handle().pipe(
      map((result: unknown) => {
        if (!isRenderedPage(result)) {
          // A redirect (@Redirect), possibly with headers of its own such as Set-Cookie.
          setPageHeaders(adapter, response);
          for (const [name, value] of Object.entries(redirectHeaders(result))) adapter.setHeader(response, name, value);
          return result;
        }
        setPageHeaders(adapter, response, result.contentSecurityPolicy);
        for (const [name, value] of Object.entries(result.headers ?? {})) adapter.setHeader(response, name, value);
        adapter.setHeader(response, 'Content-Type', 'text/html; charset=utf-8');
        return result.html;
      }),
    );
  }
}

function redirectHeaders(value: unknown): Record<string, string> {
  const headers = typeof value === 'object' && value !== null ? (value as { headers?: unknown }).headers : undefined;
  return typeof headers === 'object' && headers !== null ? (headers as Record<string, string>) : {};
}

function isRenderedPage(value: unknown): value is RenderedPage {
  return typeof value === 'object' && value !== null && 'html' in value && 'contentSecurityPolicy' in value;
}

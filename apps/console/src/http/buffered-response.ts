import { HttpServer } from '@nestjs/common';
import type { RequestLike, ResponseLike } from '@sesame/client';
import { rawRequest } from '@sesame/common';

/**
 * What @sesame/client writes to (cookies, a redirect), kept in memory and then applied to the real
 * response through Nest's HTTP adapter: the library writes to Node's response, which Fastify must
 * not be bypassed on, so this keeps the console's routes the same on Express and Fastify.
 */
export class BufferedResponse implements ResponseLike {
  statusCode = 200;
  body: string | undefined;
  private readonly headers = new Map<string, string | number | readonly string[]>();

  setHeader(name: string, value: string | number | readonly string[]): this {
    this.headers.set(name.toLowerCase(), value);
    return this;
  }

  getHeader(name: string): string | number | string[] | undefined {
    const value = this.headers.get(name.toLowerCase());
    return Array.isArray(value) ? [...value] : (value as string | number | undefined);
  }

  end(chunk?: string): this {
    this.body = chunk ?? '';
    return this;
  }

  get writableEnded(): boolean {
    return this.body !== undefined;
  }

  get headersSent(): boolean {
    return false;
  }

  /** Adds a cookie of the console's own (the library's cookies come through setHeader). */
  appendCookie(cookie: string): void {
    const existing = this.getHeader('set-cookie');
    const list = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
    this.setHeader('Set-Cookie', [...list, cookie]);
  }

  /** The Location the library answered with, if it redirected. */
  get location(): string | null {
    const location = this.headers.get('location');
    return typeof location === 'string' ? location : null;
  }

  /** Copies every header but Location (redirects are answered by the route) onto the real response. */
  copyHeadersTo(adapter: HttpServer, response: unknown): void {
    for (const [name, value] of this.headers) if (name !== 'location') adapter.setHeader(response, name, value as string);
  }
}

/** Node's request under Nest's (Express's request, Fastify's request.raw): what @sesame/client reads. */
export function requestLike(request: unknown): RequestLike {
  return rawRequest(request) as unknown as RequestLike;
}

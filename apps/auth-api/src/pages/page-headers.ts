import { HttpServer } from '@nestjs/common';

/** Headers of every page and page redirect: never cached, never framed, never leaking the URL (it carries the link token). */
export const PAGE_HEADERS: Record<string, string> = {
  'Cache-Control': 'no-store',
  Pragma: 'no-cache',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
};

export function setPageHeaders(adapter: HttpServer, response: unknown, contentSecurityPolicy?: string): void {
  for (const [name, value] of Object.entries(PAGE_HEADERS)) adapter.setHeader(response, name, value);
  if (contentSecurityPolicy) adapter.setHeader(response, 'Content-Security-Policy', contentSecurityPolicy);
}

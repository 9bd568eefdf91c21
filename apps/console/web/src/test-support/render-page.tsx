import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { vi } from 'vitest';
import type { components } from '../api/console-api';
import type { ProblemDetails } from '../api/problem';
import { FreshSignInDialog } from '../pages/sign-in/fresh-sign-in-dialog';

type Session = components['schemas']['SessionResponse'];
type Role = components['schemas']['MembershipResponse']['role'];

/** One call the page made to the management API, as the stubbed fetch saw it. */
export interface ApiCall {
  method: string;
  /** The API path without /console, e.g. /api/v2/tenant/member. */
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: Headers;
}

/** What the stubbed API answers: a status and a JSON body (problem details for 4xx/5xx). */
export interface ApiAnswer {
  status?: number;
  body?: unknown;
}

export type ApiHandler = (call: ApiCall) => ApiAnswer | Promise<ApiAnswer>;

export interface RenderPageOptions {
  /** The route pattern the page is mounted at, e.g. /t/:tenantId/organizations/:organizationId/users. */
  pattern: string;
  /** The URL to open; `:tenantId` in it is replaced by the test's tenant. */
  path: string;
  role: Role;
  api: ApiHandler;
}

export interface RenderedPage extends RenderResult {
  tenantId: string;
  queryClient: QueryClient;
  /** Every call made so far, oldest first. */
  calls: ApiCall[];
  /** The router's current location (path + search), kept up to date. */
  location: () => string;
}

/** A problem-details answer of the API. */
export function problem(status: number, code: string, detail: string, errors?: ProblemDetails['errors']): ApiAnswer {
  return { status, body: { type: `urn:sesame:error:${code}`, title: code, status, detail, code, ...(errors ? { errors } : {}) } };
}

export const PAGE = { data: [], nextCursor: null };

let tenantSequence = 0;

/**
 * Renders a page at `path` (with the app frame's "confirm it's you" dialog) (matched by `pattern`) with a fresh QueryClient (no retries), a signed-in
 * session whose membership has `role`, and `fetch` stubbed with `api`. Each render uses a tenant id
 * of its own: the management API client of a tenant is created once and keeps the fetch it was made with.
 */
export function renderPage(page: ReactNode, options: RenderPageOptions): RenderedPage {
  tenantSequence += 1;
  const tenantId = `00000000-0000-4000-8000-${String(tenantSequence).padStart(12, '0')}`;
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const session: Session = {
    signedIn: true,
    email: 'ada@example.com',
    memberships: [{ memberId: 'm-self', tenantId, tenantName: 'Acme', plan: 'pro', role: options.role }],
    csrfToken: 'csrf-token',
  };
  queryClient.setQueryData(['session'], session);

  const calls: ApiCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request | string | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      const url = new URL(request.url);
      const text = await request.text();
      const call: ApiCall = {
        method: request.method,
        path: url.pathname.replace(/^\/console/, ''),
        query: url.searchParams,
        body: text ? JSON.parse(text) : undefined,
        headers: request.headers,
      };
      calls.push(call);
      // The session is read again after a sign-in (the "confirm it's you" dialog): it stays the same.
      const answer = call.path === '/api/session' ? { body: session } : await options.api(call);
      const status = answer.status ?? 200;
      if (status === 204) return new Response(null, { status });
      const contentType = status >= 400 ? 'application/problem+json' : 'application/json';
      return new Response(JSON.stringify(answer.body ?? {}), { status, headers: { 'Content-Type': contentType } });
    }),
  );

  let current = '';
  function LocationProbe() {
    const location = useLocation();
    current = location.pathname + location.search;
    return null;
  }

  const result = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[options.path.replace(':tenantId', tenantId)]}>
        <Routes>
          <Route
            path={options.pattern}
            element={
              <>
                {page}
                <FreshSignInDialog />
                <LocationProbe />
              </>
            }
          />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...result, tenantId, queryClient, calls, location: () => current };
}

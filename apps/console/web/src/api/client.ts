import createClient, { type Middleware } from 'openapi-fetch';
import type { paths as ConsolePaths } from './console-api';
import type { paths as ManagementPaths } from './management-api';
import { ApiProblem, type ProblemDetails, unreadableAnswer } from './problem';

/**
 * The pages talk only to the console's own server: its session routes and /console/api/v2/…, which
 * is the management API's /api/v2/… called with the member's token (held in an HttpOnly cookie the
 * pages never see). Types come from both OpenAPI documents (src/api/*.d.ts, generated).
 */
/** The console's own routes are documented with their full paths (/console/api/…); the management API's as /api/v2/…. */
const CONSOLE_BASE_URL = location.origin;
const MANAGEMENT_BASE_URL = `${location.origin}/console`;

let csrfToken = '';

/** The CSRF token of GET /console/api/session; every change sends it as X-CSRF-Token. */
export function useCsrfToken(token: string): void {
  csrfToken = token;
}

const csrf: Middleware = {
  onRequest({ request }) {
    if (request.method !== 'GET') request.headers.set('X-CSRF-Token', csrfToken);
    return request;
  },
};

/** Listeners told when an answer says the session is over (401): the app sends the person to sign in. */
const sessionEndedListeners = new Set<() => void>();
export function onSessionEnded(listener: () => void): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}

const sessionEnd: Middleware = {
  onResponse({ response }) {
    if (response.status === 401) sessionEndedListeners.forEach((listener) => listener());
    return response;
  },
};

/** The window's fetch at call time (not at start-up), which is also what component tests replace. */
const currentFetch = (request: Request) => globalThis.fetch(request);

export const consoleApi = createClient<ConsolePaths>({ baseUrl: CONSOLE_BASE_URL, credentials: 'same-origin', fetch: currentFetch });
consoleApi.use(csrf);

const managementClients = new Map<string, ReturnType<typeof createClient<ManagementPaths>>>();

/** The management API, acting in one tenant (`Sesame-Tenant`). */
export function managementApi(tenantId: string) {
  let client = managementClients.get(tenantId);
  if (!client) {
    client = createClient<ManagementPaths>({
      baseUrl: MANAGEMENT_BASE_URL,
      credentials: 'same-origin',
      headers: { 'Sesame-Tenant': tenantId },
      fetch: currentFetch,
    });
    client.use(csrf, sessionEnd);
    managementClients.set(tenantId, client);
  }
  return client;
}

export type ManagementApi = ReturnType<typeof managementApi>;

/** The data of an answer, or the ApiProblem it carries (thrown, so queries and mutations fail with it). */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let answer: Awaited<typeof call>;
  try {
    answer = await call;
  } catch {
    throw unreadableAnswer(0);
  }
  if (answer.response.ok) return answer.data as T;
  const error = answer.error as Partial<ProblemDetails> | undefined;
  if (error && typeof error === 'object' && typeof error.code === 'string')
    throw new ApiProblem(answer.response.status, error as ProblemDetails);
  throw unreadableAnswer(answer.response.status);
}

// Test doubles for the unit tests (not part of the package: excluded from its build).
import { RequestLike, ResponseLike } from '../cookies';
import { FetchFunction, FetchResponse } from '@sesame/client-core';

export const BASE_URL = 'https://auth.example.com/api';
export const CLIENT_ID = 'client-id_123';
export const CLIENT_SECRET = 'client-secret_abcdefghijklmnopqrstuvwxyz0123456789';

export interface FakeRequestInit {
  url?: string;
  host?: string;
  https?: boolean;
  headers?: Record<string, string>;
  cookies?: Record<string, string>;
}

/** An IncomingMessage-shaped request. */
export function fakeRequest(init: FakeRequestInit = {}): RequestLike {
  const headers: Record<string, string> = { host: init.host ?? 'app.example.com', ...init.headers };
  if (init.cookies)
    headers.cookie = Object.entries(init.cookies)
      .map(([name, value]) => `${name}=${value}`)
      .join('; ');
  return { url: init.url ?? '/', method: 'GET', headers, socket: { encrypted: init.https ?? true } };
}

/** A ServerResponse-shaped response that records what was written. */
export class FakeResponse implements ResponseLike {
  statusCode = 200;
  body: string | undefined;
  writableEnded = false;
  private readonly headers = new Map<string, string | number | readonly string[]>();

  get headersSent(): boolean {
    return this.writableEnded;
  }

  setHeader(name: string, value: string | number | readonly string[]): this {
    this.headers.set(name.toLowerCase(), value);
    return this;
  }

  getHeader(name: string): string | number | string[] | undefined {
    const value = this.headers.get(name.toLowerCase());
    return Array.isArray(value) ? [...value] : (value as string | number | undefined);
  }

  end(chunk?: string): this {
    this.body = chunk;
    this.writableEnded = true;
    return this;
  }

  /** Set-Cookie values, as a list. */
  get setCookies(): string[] {
    const value = this.getHeader('set-cookie');
    return value === undefined ? [] : Array.isArray(value) ? value : [String(value)];
  }

  /** The Set-Cookie value for `name`. */
  cookie(name: string): string | undefined {
    return this.setCookies.find((cookie) => cookie.startsWith(`${name}=`));
  }

  /** The value part of the Set-Cookie for `name`. */
  cookieValue(name: string): string | undefined {
    return this.cookie(name)
      ?.split(';')[0]
      .slice(name.length + 1);
  }
}

export interface RecordedCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

/** A fetch that answers from `route` and records every call. */
export function fakeFetch(route: (call: RecordedCall) => Answer | Promise<Answer>): FetchFunction & { calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  const fetch = async (url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<FetchResponse> => {
    const call = { url, method: init.method, headers: init.headers, body: init.body };
    calls.push(call);
    const answer = await route(call);
    const headers = new Map(Object.entries(answer.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
    return {
      status: answer.status,
      headers: { get: (name: string) => headers.get(name.toLowerCase()) ?? null },
      text: async () => (answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body)),
    };
  };
  return Object.assign(fetch, { calls });
}

export const USERINFO = {
  sub: '6f1c1f0e-3d0a-4c1e-9a53-0d6b1b7c2f10',
  email: 'ada@example.com',
  email_verified: true,
  name: 'Ada',
  organization_id: 'a1f5d7c2-8a4b-4a8e-9d8c-0c5f2a1b3e4d',
  updated_at: 1_700_000_000,
};

/** A fetch that behaves like Sesame's happy path. */
export function sesameFetch(overrides: Partial<Record<'authenticate_direct' | 'verify' | 'userinfo' | 'revoke', Answer>> = {}) {
  return fakeFetch((call) => {
    const path = call.url.slice(BASE_URL.length);
    if (path === '/v1/authenticate_direct')
      return (
        overrides.authenticate_direct ?? {
          status: 200,
          body: {
            loginAttemptId: 'attempt-1',
            token: 'hash',
            sentence: 'Brave otters sing',
            approvalNumber: '42',
            allowedDate: '2030-01-01T00:00:15.000Z',
          },
        }
      );
    if (path === '/v1/verify')
      return (
        overrides.verify ?? {
          status: 200,
          body: {
            access_token: 'access-token-1',
            id_token: 'x',
            expires_in: 2_592_000,
            expires_at: '2030-02-01T00:00:00.000Z',
            token_type: 'Bearer',
          },
        }
      );
    if (path === '/v1/userinfo') return overrides.userinfo ?? { status: 200, body: USERINFO };
    if (path === '/v1/revoke') return overrides.revoke ?? { status: 200 };
    return { status: 404, body: { error: 'not_found', error_description: path } };
  });
}

/** The form fields of a recorded form-urlencoded call. */
export function formOf(call: RecordedCall): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(call.body ?? ''));
}

import request from 'supertest';
import { ERROR_CODES, oauthErrorCodes, PROBLEM_CODES } from '@sesame/common';
import { RunningApp, startAuthApi, startManagementApi } from '../support/apps';

type Answer = { description: string };

/** Backticked snake_case names in descriptions that are not error codes: a cookie. */
const NOT_CODES = new Set(['sesame_attempt']);
type Document = {
  paths: Record<string, Record<string, { responses: Record<string, Answer> }>>;
  components: { schemas: Record<string, { properties: Record<string, { enum?: string[] }> }> };
};

/** The snake_case codes an operation's error answers name in backticks, as `route status code`. */
function namedCodes(document: Document): { where: string; code: string }[] {
  return Object.entries(document.paths)
    .flatMap(([path, methods]) =>
      Object.entries(methods).flatMap(([method, operation]) =>
        Object.entries(operation.responses)
          .filter(([status]) => /^[45]/.test(status))
          .flatMap(([status, answer]) =>
            [...answer.description.matchAll(/`([a-z]+(?:_[a-z]+)+)`/g)].map((match) => ({
              where: `${method.toUpperCase()} ${path} ${status}`,
              code: match[1],
            })),
          ),
      ),
    )
    .filter(({ code }) => !NOT_CODES.has(code));
}

/**
 * The OpenAPI documents list the error codes of ERROR_CODES (libs/common/src/problems/error-codes.ts):
 * the problem body's `code` and the OAuth error's `error` are enums of them, and every code an error
 * answer's description names is one of them. Fails when a document and the map drift apart.
 */
describe('error codes in the OpenAPI documents', () => {
  let management: RunningApp;
  let auth: RunningApp;

  beforeAll(async () => {
    [management, auth] = await Promise.all([startManagementApi(), startAuthApi()]);
  });
  afterAll(() => Promise.all([management?.close(), auth?.close()]));

  const documentOf = async (app: RunningApp, version: string): Promise<Document> =>
    (await request(app.url).get(`/api/${version}/openapi.json`).expect(200)).body;

  it("the management API: `code` of ProblemDetails is an enum of the map's codes, and descriptions name only those", async () => {
    const document = await documentOf(management, 'v2');
    expect(document.components.schemas.ProblemDetails.properties.code.enum).toEqual(PROBLEM_CODES);
    expect(PROBLEM_CODES).toEqual(
      expect.arrayContaining(['insufficient_role', 'validation_failed', 'rate_limited', 'service_unavailable', 'internal_error']),
    );
    expect(namedCodes(document).filter(({ code }) => !PROBLEM_CODES.includes(code))).toEqual([]);
  });

  it('the auth API: `error` of OAuthError is an enum of the RFC 6749 codes the map reports, and descriptions name only codes of the map', async () => {
    const document = await documentOf(auth, 'v1');
    expect(document.components.schemas.OAuthError.properties.error.enum).toEqual(oauthErrorCodes());
    expect(oauthErrorCodes()).toEqual(
      expect.arrayContaining(['invalid_request', 'invalid_grant', 'invalid_client', 'temporarily_unavailable', 'server_error']),
    );
    expect(oauthErrorCodes()).not.toContain('validation_failed');
    const known = new Set([...oauthErrorCodes(), ...Object.keys(ERROR_CODES)]);
    expect(namedCodes(document).filter(({ code }) => !known.has(code))).toEqual([]);
  });
});

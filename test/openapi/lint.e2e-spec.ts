import request from 'supertest';
import { ConsoleModule } from '../../apps/console/src/console.module';
import { setupConsoleApp } from '../../apps/console/src/setup';
import { RunningApp, startApp, startAuthApi, startManagementApi } from '../support/apps';
import { LintProblem, lintOpenApi } from '../support/openapi-lint';

type Document = { components: { securitySchemes: Record<string, unknown> } };

const errorsOf = (problems: LintProblem[]) =>
  problems.filter((problem) => problem.severity === 'error').map(({ rule, pointer, message }) => `${rule} at ${pointer}: ${message}`);

/**
 * The three documents Sesame serves pass Redocly's `recommended` rules without an error, so that
 * the tools that read them (Swagger UI's Authorize, client generators, gateways importing them)
 * get what they expect: every security scheme an operation names is defined, and every operation
 * says who may call it (`security: []` for public ones).
 */
describe('the OpenAPI documents under Redocly’s recommended rules', () => {
  let auth: RunningApp;
  let management: RunningApp;
  let consoleApp: RunningApp;

  beforeAll(async () => {
    auth = await startAuthApi();
    management = await startManagementApi();
    // The console's routes document themselves without reaching Sesame: any credentials will do.
    consoleApp = await startApp((config) => ConsoleModule.forRoot(config, { clientId: 'lint', clientSecret: 'lint' }), {
      setup: setupConsoleApp,
    });
  });

  afterAll(async () => {
    await auth?.close();
    await management?.close();
    await consoleApp?.close();
  });

  const documentOf = async (app: () => RunningApp, path: string): Promise<Document> =>
    (await request(app().url).get(path).expect(200)).body;

  it.each([
    ['auth API', () => auth, '/api/v1/openapi.json'],
    ['management API', () => management, '/api/v2/openapi.json'],
    ['console', () => consoleApp, '/console/api/openapi.json'],
  ])('the %s’s has no errors', async (_name, app, path) => {
    expect(errorsOf(lintOpenApi(await documentOf(app, path)))).toEqual([]);
  });

  it('the linter does report an error: an operation that names an undefined security scheme', async () => {
    const document = await documentOf(() => auth, '/api/v1/openapi.json');
    delete document.components.securitySchemes.client;
    expect(errorsOf(lintOpenApi(document))).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^security-defined at #\/paths\/~1api~1v1~1authenticate_direct\/post\/security\/0\/client: /),
      ]),
    );
  });
});

import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import request from 'supertest';
import { ConsoleModule } from '../../apps/console/src/console.module';
import { setupConsoleApp } from '../../apps/console/src/setup';
import { RunningApp, startApp, startManagementApi } from '../support/apps';
import { typesOf } from '../support/openapi-types';

const ROOT = resolve(__dirname, '../..');
const WEB = join(ROOT, 'apps/console/web');

/**
 * The console's pages take their API types from the OpenAPI documents of the management API and
 * of the console's own routes (openapi-typescript), never retyped by hand. This test fails when the
 * committed types no longer match a document; `npm run console:api-types` writes them anew.
 */
describe('the console’s API types', () => {
  let management: RunningApp;
  let consoleApp: RunningApp;

  beforeAll(async () => {
    management = await startManagementApi();
    // The console's routes document themselves without reaching Sesame: any credentials will do.
    consoleApp = await startApp((config) => ConsoleModule.forRoot(config, { clientId: 'types', clientSecret: 'types' }), {
      setup: setupConsoleApp,
    });
  });

  afterAll(async () => {
    await management?.close();
    await consoleApp?.close();
  });

  it.each([
    ['management API', () => management.url, '/api/v2/openapi.json', 'management-api.d.ts'],
    ['console', () => consoleApp.url, '/console/api/openapi.json', 'console-api.d.ts'],
  ])('of the %s are generated from its current OpenAPI document', async (_name, url, documentPath, file) => {
    const document = (await request(url()).get(documentPath).expect(200)).body;
    const generated = await typesOf(document);
    const target = join(WEB, 'src/api', file);
    if (process.env.UPDATE_API_TYPES === '1') writeFileSync(target, generated);
    expect(readFileSync(target, 'utf8')).toBe(generated);
  });
});

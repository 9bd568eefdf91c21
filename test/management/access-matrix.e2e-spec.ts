import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { renderAccessMatrix } from '../../apps/management-api/src/access/access-matrix';
import { RunningApp } from '../support/apps';
import { servedOpenApi, startUnthrottledManagementApi } from '../support/management';

const DOC = resolve(__dirname, '../../docs/access.md');
const SECTION = /(<!-- access-matrix:start[^>]*-->\n)[\s\S]*?(<!-- access-matrix:end -->)/;

/**
 * docs/access.md holds the access matrix generated from the rules of the routes as the app serves
 * them (`x-sesame-access` in the OpenAPI document). This test fails when the committed table
 * differs; `npm run docs:access` (UPDATE_ACCESS_DOC=1) writes it anew.
 */
describe('the access matrix in docs/access.md', () => {
  let api: RunningApp;

  beforeAll(async () => {
    api = await startUnthrottledManagementApi();
  });
  afterAll(() => api.close());

  it('is the one generated from the served OpenAPI document', async () => {
    const matrix = renderAccessMatrix(await servedOpenApi(api.url));
    const current = readFileSync(DOC, 'utf8');
    expect(current).toMatch(SECTION);
    const generated = current.replace(SECTION, (_, start: string, end: string) => `${start}\n${matrix}\n${end}`);
    if (process.env.UPDATE_ACCESS_DOC === '1') writeFileSync(DOC, generated);
    expect(readFileSync(DOC, 'utf8')).toBe(generated);
  });
});

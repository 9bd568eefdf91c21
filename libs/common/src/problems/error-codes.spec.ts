import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ERROR_CODES, ErrorDefinition, errorCodesOf, oauthErrorCode } from './error-codes';
import { renderErrorTable } from './error-table';

const ROOT = resolve(__dirname, '../../../..');
const DOC = join(ROOT, 'docs/errors.md');
const SECTION = /(<!-- error-codes:start[^>]*-->\n)[\s\S]*?(<!-- error-codes:end -->)/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'web' || name === 'dist') return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('ERROR_CODES', () => {
  /** docs/errors.md's code table is generated from the map; `npm run docs:errors` (UPDATE_ERRORS_DOC=1) writes it anew. */
  it('is the table of docs/errors.md', () => {
    const current = readFileSync(DOC, 'utf8');
    expect(current).toMatch(SECTION);
    const generated = current.replace(SECTION, (_, start: string, end: string) => `${start}${renderErrorTable()}\n${end}`);
    if (process.env.UPDATE_ERRORS_DOC === '1') writeFileSync(DOC, generated);
    expect(readFileSync(DOC, 'utf8')).toBe(generated);
  });

  it('gives a status of its own only where a place of the code overrides the code’s status', () => {
    const definitions: [string, ErrorDefinition][] = Object.entries(ERROR_CODES);
    const overrides = definitions.flatMap(([code, definition]) =>
      (definition.also ?? [])
        .filter((use) => use.status !== undefined)
        .map((use) => `${code} ${definition.status}→${use.status} ${use.apis.join(',')}`),
    );
    expect(overrides).toEqual(['platform_key_required 403→401 v2', 'invalid_client 401→400 page', 'access_denied 403→400 console']);
  });

  it('reports the codes of other APIs as RFC 6749 errors on the auth API', () => {
    expect([
      oauthErrorCode('validation_failed'),
      oauthErrorCode('service_unavailable'),
      oauthErrorCode('internal_error'),
      oauthErrorCode('invalid_grant'),
    ]).toEqual(['invalid_request', 'temporarily_unavailable', 'server_error', 'invalid_grant']);
    expect(errorCodesOf(['page'])).toContain('unknown_login_link');
  });

  /** Errors are made by code (problem()); only the problems module and relays of another API's answer build one by status. */
  it('is how apps and libs raise errors: no ProblemException is built by hand elsewhere', () => {
    const byHand = [...sourceFiles(join(ROOT, 'apps')), ...sourceFiles(join(ROOT, 'libs'))]
      .filter((path) => !path.includes('/libs/common/src/problems/'))
      .filter((path) => /new ProblemException\(/.test(readFileSync(path, 'utf8')));
    expect(byHand).toEqual([]);
  });
});

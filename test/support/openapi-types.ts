import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

/** The console's web workspace, which has openapi-typescript. */
const WEB = resolve(__dirname, '../../apps/console/web');

/**
 * The TypeScript types openapi-typescript generates from an OpenAPI document. A property with a
 * default stays optional where the document says so: by default the generator makes it required
 * even in a request body's schema (a `$ref` it does not know to be one), so callers would have to
 * send what the API fills in by itself.
 */
export async function typesOf(document: object): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'sesame-openapi-'));
  const input = join(dir, 'openapi.json');
  writeFileSync(input, JSON.stringify(document));
  try {
    const { stdout } = await promisify(execFile)(
      join(WEB, 'node_modules/.bin/openapi-typescript'),
      [input, '--default-non-nullable', 'false'],
      { cwd: WEB, maxBuffer: 16 * 1024 * 1024 },
    );
    return stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

import { spawnSync } from 'node:child_process';

/**
 * Validates an OpenAPI document with @apidevtools/swagger-parser (schema and semantic checks).
 * The parser's dependencies are ESM-only, which Jest's CommonJS runtime does not load, so it
 * runs in a plain Node process that reads the document on stdin.
 */
export function validateOpenApi(document: unknown): { valid: true } | { valid: false; errors: string } {
  const script = `
    const SwaggerParser = require('@apidevtools/swagger-parser');
    let input = '';
    process.stdin.on('data', (chunk) => (input += chunk));
    process.stdin.on('end', () =>
      SwaggerParser.validate(JSON.parse(input)).then(
        () => process.stdout.write(JSON.stringify({ valid: true })),
        (error) => process.stdout.write(JSON.stringify({ valid: false, errors: String(error.message) })),
      ),
    );`;
  const result = spawnSync(process.execPath, ['-e', script], { input: JSON.stringify(document), encoding: 'utf8', cwd: __dirname });
  if (result.status !== 0) throw new Error(`The OpenAPI validator did not run: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

import { spawnSync } from 'node:child_process';

/** One finding of the linter: its rule, what it says and where (a JSON pointer into the document). */
export interface LintProblem {
  rule: string;
  severity: 'error' | 'warn';
  message: string;
  pointer: string;
}

/**
 * Lints an OpenAPI document with Redocly's `recommended` rules (@redocly/openapi-core, the engine of
 * `redocly lint`): what API tools (generators, Swagger UI, gateways) expect of a document beyond
 * its schema. The package is ESM-only, which Jest's CommonJS runtime does not load, so it runs in a
 * plain Node process that reads the document on stdin.
 */
export function lintOpenApi(document: unknown): LintProblem[] {
  const script = `
    let input = '';
    process.stdin.on('data', (chunk) => (input += chunk));
    process.stdin.on('end', async () => {
      const { createConfig, lintFromString } = await import('@redocly/openapi-core');
      const config = await createConfig({ extends: ['recommended'] });
      const problems = await lintFromString({ source: input, absoluteRef: 'openapi.json', config });
      process.stdout.write(JSON.stringify(problems.map((problem) => ({
        rule: problem.ruleId,
        severity: problem.severity,
        message: problem.message,
        pointer: problem.location[0]?.pointer ?? '',
      }))));
    });`;
  const result = spawnSync(process.execPath, ['-e', script], {
    input: JSON.stringify(document),
    encoding: 'utf8',
    cwd: __dirname,
    maxBuffer: 16 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`The OpenAPI linter did not run: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(__dirname, '..', '..');
const run = promisify(execFile);

/**
 * The libraries as packages, the way the example app (or any outside app) loads them: through
 * node_modules/@sesame/* (npm workspace links) and their package.json, from the build that
 * `npm run build` makes in libs/<lib>/dist. Run `npm run build` first.
 */
describe('client packages', () => {
  beforeAll(() => {
    for (const lib of ['client', 'client-react-native']) {
      if (!existsSync(join(ROOT, 'libs', lib, 'dist', 'index.js'))) throw new Error(`libs/${lib}/dist is missing: run \`npm run build\` first`);
    }
  });

  it('resolve by name from the example app, with types, and export the public API', async () => {
    const script = `
      const client = require('@sesame/client');
      const native = require('@sesame/client-react-native');
      console.log(JSON.stringify({
        client: require.resolve('@sesame/client'),
        native: require.resolve('@sesame/client-react-native'),
        clientExports: Object.keys(client).sort(),
        nativeExports: Object.keys(native).sort(),
      }));`;
    const { stdout } = await run(process.execPath, ['-e', script], { cwd: join(ROOT, 'examples', 'express-app') });
    const loaded = JSON.parse(stdout);
    expect(loaded.client).toBe(join(ROOT, 'libs', 'client', 'dist', 'index.js'));
    expect(loaded.native).toBe(join(ROOT, 'libs', 'client-react-native', 'dist', 'index.js'));
    expect(loaded.clientExports).toEqual(
      ['InvalidStateError', 'ProviderError', 'RateLimitedError', 'SesameClient', 'SesameError', 'createSesameClient', 'createSignedState', 'redirectResponse', 'verifySignedState'].sort(),
    );
    expect(loaded.nativeExports).toEqual(
      ['InvalidStateError', 'MemoryStorage', 'ProviderError', 'RateLimitedError', 'SesameError', 'SesameNativeClient', 'createSesameNativeClient'].sort(),
    );
    for (const lib of ['client', 'client-react-native']) {
      const manifest = JSON.parse(readFileSync(join(ROOT, 'libs', lib, 'package.json'), 'utf8'));
      expect(existsSync(join(ROOT, 'libs', lib, manifest.types))).toBe(true);
    }
  });

  it('the React Native build requires nothing but its own files (no Node built-ins, no NestJS)', () => {
    const dist = join(ROOT, 'libs', 'client-react-native', 'dist');
    const required = readdirSync(dist)
      .filter((file) => file.endsWith('.js'))
      .flatMap((file) => [...readFileSync(join(dist, file), 'utf8').matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1]));
    expect(required.length).toBeGreaterThan(0);
    expect(required.filter((name) => !name.startsWith('./'))).toEqual([]);
  });

  it('the Node client requires only Node built-ins and its own files', () => {
    const dist = join(ROOT, 'libs', 'client', 'dist');
    const required = readdirSync(dist)
      .filter((file) => file.endsWith('.js'))
      .flatMap((file) => [...readFileSync(join(dist, file), 'utf8').matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1]));
    expect(required.filter((name) => !name.startsWith('./') && !name.startsWith('node:'))).toEqual([]);
  });
});

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(__dirname, '..', '..');
const LIBS = ['client', 'client-react-native'];
const run = promisify(execFile);

function manifestOf(lib: string): { main: string; types: string } {
  return JSON.parse(readFileSync(join(ROOT, 'libs', lib, 'package.json'), 'utf8'));
}

/** Every require() of the package's built JavaScript, with the file it stands in. */
function requiresIn(dist: string): { file: string; name: string }[] {
  return readdirSync(dist, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.js'))
    .flatMap((file) =>
      [...readFileSync(join(dist, file), 'utf8').matchAll(/require\("([^"]+)"\)/g)].map((match) => ({
        file: join(dist, file),
        name: match[1],
      })),
    );
}

/** The requires that do not name a file of the package's own dist (libs/client-core is compiled into it). */
function outsideRequires(dist: string): string[] {
  return requiresIn(dist)
    .filter(({ file, name }) => !name.startsWith('.') || relative(dist, resolve(dirname(file), name)).startsWith('..'))
    .map(({ name }) => name);
}

/**
 * The libraries as packages, the way the example app (or any outside app) loads them: through
 * node_modules/@sesame/* (npm workspace links) and their package.json, from the build that
 * `npm run build` makes in libs/<lib>/dist; and packed, installed alone in a new project.
 * Run `npm run build` first.
 */
describe('client packages', () => {
  const CLIENT_EXPORTS = [
    'InvalidStateError',
    'ProviderError',
    'RateLimitedError',
    'SesameClient',
    'SesameError',
    'createSesameClient',
    'createSignedState',
    'redirectResponse',
    'verifySignedState',
  ].sort();
  const NATIVE_EXPORTS = [
    'InvalidStateError',
    'MemoryStorage',
    'ProviderError',
    'RateLimitedError',
    'SesameError',
    'SesameNativeClient',
    'createSesameNativeClient',
  ].sort();

  beforeAll(() => {
    for (const lib of LIBS) {
      if (!existsSync(join(ROOT, 'libs', lib, manifestOf(lib).main)))
        throw new Error(`libs/${lib}/dist is missing: run \`npm run build\` first`);
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
    expect(loaded.client).toBe(join(ROOT, 'libs', 'client', manifestOf('client').main));
    expect(loaded.native).toBe(join(ROOT, 'libs', 'client-react-native', manifestOf('client-react-native').main));
    expect(loaded.clientExports).toEqual(CLIENT_EXPORTS);
    expect(loaded.nativeExports).toEqual(NATIVE_EXPORTS);
    for (const lib of LIBS) expect(existsSync(join(ROOT, 'libs', lib, manifestOf(lib).types))).toBe(true);
  });

  it('the React Native build requires nothing but its own files (no Node built-ins, no NestJS)', () => {
    const dist = join(ROOT, 'libs', 'client-react-native', 'dist');
    expect(requiresIn(dist).length).toBeGreaterThan(0);
    expect(outsideRequires(dist)).toEqual([]);
  });

  it('the Node client requires only Node built-ins and its own files', () => {
    expect(outsideRequires(join(ROOT, 'libs', 'client', 'dist')).filter((name) => !name.startsWith('node:'))).toEqual([]);
  });

  describe('packed and installed alone', () => {
    let project: string;

    beforeAll(async () => {
      project = mkdtempSync(join(tmpdir(), 'sesame-packages-'));
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'outside-app', version: '1.0.0', private: true }));
      const tarballs: string[] = [];
      for (const lib of LIBS) {
        // Built already (beforeAll above): --ignore-scripts skips the prepack build.
        const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', project], {
          cwd: join(ROOT, 'libs', lib),
        });
        tarballs.push(join(project, JSON.parse(stdout)[0].filename));
      }
      await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', ...tarballs], { cwd: project });
    }, 120_000);

    afterAll(() => rmSync(project, { recursive: true, force: true }));

    it('load without the monorepo, with the shared errors (allowedDate on both)', async () => {
      const script = `
        const client = require('@sesame/client');
        const native = require('@sesame/client-react-native');
        const allowedDate = new Date('2030-01-01T00:00:00.000Z');
        console.log(JSON.stringify({
          client: require.resolve('@sesame/client'),
          clientExports: Object.keys(client).sort(),
          nativeExports: Object.keys(native).sort(),
          clientError: { ...new client.RateLimitedError(allowedDate, 5) },
          nativeError: { ...new native.RateLimitedError(allowedDate, 5) },
          nativeState: new native.InvalidStateError('missing_state') instanceof native.SesameError,
        }));`;
      const { stdout } = await run(process.execPath, ['-e', script], { cwd: project });
      const loaded = JSON.parse(stdout);
      expect(loaded.client.startsWith(join(project, 'node_modules', '@sesame', 'client'))).toBe(true);
      expect(loaded.clientExports).toEqual(CLIENT_EXPORTS);
      expect(loaded.nativeExports).toEqual(NATIVE_EXPORTS);
      for (const error of [loaded.clientError, loaded.nativeError]) {
        expect(error).toEqual({ name: 'RateLimitedError', code: 'rate_limited', allowedDate: '2030-01-01T00:00:00.000Z', retryAfter: 5 });
      }
      expect(loaded.nativeState).toBe(true);
      for (const lib of LIBS) expect(existsSync(join(project, 'node_modules', '@sesame', lib, manifestOf(lib).types))).toBe(true);
    });
  });
});

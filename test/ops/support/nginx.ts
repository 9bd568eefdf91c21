import { ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { LineCollector } from './lines';

/** docker/nginx.conf, from this file in the repository (tests) or in dist/ (the drills). */
export const NGINX_CONF = [resolve(__dirname, '../../../docker/nginx.conf'), resolve(__dirname, '../../../../docker/nginx.conf')].find(
  (path) => existsSync(path),
)!;

/** Debian's nginx (`apt-get install nginx`; .ci/run installs it), or NGINX_BIN. */
export function nginxBinary(): string {
  const candidates = [process.env.NGINX_BIN, '/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx'].filter(
    Boolean,
  ) as string[];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error('nginx is not installed: `apt-get install nginx` (.ci/run does this), or set NGINX_BIN');
  return found;
}

/** Each app's address, or addresses when several instances run. */
export interface Upstreams {
  auth: string | string[];
  management: string | string[];
  console: string | string[];
}

/** One `server` line per address, each with the template's parameters (max_fails, fail_timeout). */
const servers = (addresses: string | string[]) => (_line: string, parameters: string) =>
  [addresses]
    .flat()
    .map((address) => `server ${address}${parameters};`)
    .join(' ');

/**
 * docker/nginx.conf with the compose hosts replaced by loopback addresses, listening on a test port,
 * with its pid file and temporary files in `dir` (the container's /tmp and nginx defaults are not
 * writable here). Only these lines change; every location block is used as it is.
 */
export function renderNginxConfig(template: string, upstreams: Upstreams, port: number, dir: string): string {
  const replacements: [string | RegExp, string | ((match: string, ...groups: string[]) => string)][] = [
    [/server auth-api:3002([^;]*);/, servers(upstreams.auth)],
    [/server management-api:3001([^;]*);/, servers(upstreams.management)],
    [/server console:3004([^;]*);/, servers(upstreams.console)],
    ['listen 3000;', `listen 127.0.0.1:${port};`],
    ['pid /tmp/nginx.pid;', `pid ${join(dir, 'nginx.pid')};`],
    [
      /^http \{$/m,
      [
        'http {',
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `    ${kind}_temp_path ${join(dir, `${kind}_temp`)};`),
      ].join('\n'),
    ],
  ];
  let rendered = template;
  for (const [pattern, replacement] of replacements) {
    const count =
      typeof pattern === 'string' ? rendered.split(pattern).length - 1 : (rendered.match(new RegExp(pattern, 'gm')) ?? []).length;
    if (count !== 1) throw new Error(`docker/nginx.conf: expected exactly one ${String(pattern)}, found ${count}`);
    rendered = typeof replacement === 'string' ? rendered.replace(pattern, replacement) : rendered.replace(pattern, replacement);
  }
  return rendered;
}

export interface RunningNginx {
  url: string;
  /** Access log lines (JSON) and error log lines. */
  output: LineCollector;
  stop(): Promise<void>;
}

/** `nginx -t` on a rendered configuration: resolves with nginx's report, rejects when the test fails. */
export async function testNginxConfig(configFile: string, dir: string): Promise<string> {
  const { stdout } = await promisify(execFile)('bash', ['-c', pipedNginx(['-t', '-p', dir, '-c', configFile])]);
  return stdout;
}

/**
 * A shell command running nginx with its output through a real pipe: the configuration logs to
 * /dev/stdout (as in the container), which nginx cannot open on the socket pairs Node gives a child.
 */
function pipedNginx(args: string[]): string {
  const quoted = [nginxBinary(), ...args].map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
  return `set -o pipefail; ${quoted} 2>&1 | cat`;
}

/** Renders docker/nginx.conf for these upstreams, checks it with `nginx -t`, then runs nginx in the foreground as a child process. */
export async function startNginx(upstreams: Upstreams, port: number): Promise<RunningNginx & { configTest: string; config: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'sesame-nginx-'));
  mkdirSync(join(dir, 'logs'));
  const config = renderNginxConfig(readFileSync(NGINX_CONF, 'utf8'), upstreams, port, dir);
  const configFile = join(dir, 'nginx.conf');
  writeFileSync(configFile, config);
  const configTest = await testNginxConfig(configFile, dir);
  const child: ChildProcess = spawn(
    'bash',
    ['-c', pipedNginx(['-p', dir, '-c', configFile, '-g', 'daemon off; error_log stderr notice;'])],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output = new LineCollector();
  output.attach(child.stdout!);
  output.attach(child.stderr!);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  // Workers start once the listening socket is open (the notice comes from the extra error_log above).
  const started = await output.waitFor(
    (line) => line.includes('start worker process') || line.includes('[emerg]'),
    10_000,
    'nginx to start',
  );
  if (started.includes('[emerg]')) throw new Error(`nginx did not start: ${started}`);
  return {
    url: `http://127.0.0.1:${port}`,
    output,
    config,
    configTest,
    stop: async () => {
      // The master's pid (the shell's child): SIGQUIT is nginx's graceful stop.
      if (child.exitCode === null) process.kill(Number(readFileSync(join(dir, 'nginx.pid'), 'utf8').trim()), 'SIGQUIT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// The compose stack under podman: `node scripts/containers/stack.mjs up|down|images`.
// `up` starts docker/compose.yml with docker/compose.local.yml (the images made from Debian's packages)
// through podman-compose, one service at a time in the order of their depends_on, and waits for each
// condition itself (service_healthy, service_completed_successfully): podman-compose 1.0 ignores them,
// and podman runs health checks from systemd timers, which a machine without systemd does not have.
// Run as root (podman's bridge networks need it). The test, test/containers, runs exactly this.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const project = process.env.COMPOSE_PROJECT_NAME ?? 'sesame';
const composeFiles = ['docker/compose.yml', 'docker/compose.local.yml'];
const CONDITION_TIMEOUT_MS = 180_000;

/** podman's settings for this machine, as scripts/containers/podman-env.sh writes them. */
function podmanEnvironment() {
  const script = `source ${join(root, 'scripts/containers/podman-env.sh')} && printf '%s' "$CONTAINERS_CONF"`;
  return { ...process.env, CONTAINERS_CONF: execFileSync('bash', ['-c', script], { encoding: 'utf8' }) };
}
const env = podmanEnvironment();

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, env, encoding: 'utf8', stdio: options.capture ? 'pipe' : 'inherit' });
  if (result.status !== 0 && !options.allowFailure) {
    throw new Error(
      `${command} ${args.join(' ')} exited ${result.status}${options.capture ? `:\n${result.stdout}\n${result.stderr}` : ''}`,
    );
  }
  return result;
}

/** podman-compose, quiet unless it fails (it prints the whole merged file and every podman command). */
const compose = (...args) =>
  run('podman-compose', ['-p', project, ...composeFiles.flatMap((file) => ['-f', file]), ...args], { capture: true });
const containerOf = (service) => `${project}_${service}_1`;

/** The services of docker/compose.yml, each with what it waits for. */
function services() {
  const file = load(readFileSync(join(root, 'docker/compose.yml'), 'utf8'));
  return Object.entries(file.services).map(([name, service]) => ({
    name,
    dependsOn: Object.entries(service.depends_on ?? {}).map(([dependency, { condition }]) => ({ dependency, condition })),
    healthCheck: Boolean(service.healthcheck) || Boolean(service.build),
  }));
}

/** Every service after the ones it depends on (the order docker compose starts them in). */
function startOrder(all) {
  const ordered = [];
  const visit = (service, path = []) => {
    if (ordered.includes(service)) return;
    if (path.includes(service.name)) throw new Error(`depends_on cycle: ${[...path, service.name].join(' → ')}`);
    for (const { dependency } of service.dependsOn)
      visit(
        all.find((candidate) => candidate.name === dependency),
        [...path, service.name],
      );
    ordered.push(service);
  };
  all.forEach((service) => visit(service));
  return ordered;
}

async function until(what, check) {
  const deadline = Date.now() + CONDITION_TIMEOUT_MS;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${CONDITION_TIMEOUT_MS / 1000} s`);
    await sleep(1000);
  }
}

const healthy = (service) =>
  run('podman', ['healthcheck', 'run', containerOf(service)], { capture: true, allowFailure: true }).status === 0;

async function waitHealthy(service) {
  await until(`${service} healthy`, () => healthy(service));
}

async function waitFor({ dependency, condition }) {
  if (condition === 'service_healthy') return waitHealthy(dependency);
  if (condition === 'service_completed_successfully') {
    const exit = run('podman', ['wait', containerOf(dependency)], { capture: true }).stdout.trim();
    if (exit !== '0') throw new Error(`${dependency} exited ${exit}`);
  }
}

/** SECRETS_KEY and PLATFORM_API_KEY from the environment, else from docker/.env, made on the first start. */
function ensureSecrets() {
  if (env.SECRETS_KEY) return;
  const file = join(root, 'docker/.env');
  if (!existsSync(file)) {
    writeFileSync(file, `SECRETS_KEY=${randomBytes(32).toString('hex')}\nPLATFORM_API_KEY=${randomBytes(32).toString('hex')}\n`, {
      mode: 0o600,
    });
  }
}

async function up() {
  ensureSecrets();
  const started = Date.now();
  const all = services();
  // Every container created at once, then started one by one: podman-compose 1.0 would start (again)
  // each service's dependencies, the migration included, on every `up <service>`.
  compose('up', '--no-start', '--no-build');
  for (const service of startOrder(all)) {
    for (const dependency of service.dependsOn) await waitFor(dependency);
    run('podman', ['start', containerOf(service.name)], { capture: true });
  }
  for (const service of all.filter((candidate) => candidate.healthCheck && !isJob(candidate.name, all))) await waitHealthy(service.name);
  console.log(`stack healthy ${((Date.now() - started) / 1000).toFixed(1)} s after up`);
}

/** A service others wait to complete (migrate, console-setup): it exits, it is never healthy. */
const isJob = (name, all) =>
  all.some((service) => service.dependsOn.some((d) => d.dependency === name && d.condition === 'service_completed_successfully'));

function down() {
  // Compose refuses the file without SECRETS_KEY, even to stop it.
  env.SECRETS_KEY ||= 'not-used-to-stop';
  compose('down', '-v', '-t', '30');
  run('podman', ['network', 'rm', '--force', `${project}_default`], { capture: true, allowFailure: true });
}

function images() {
  run('bash', [join(root, 'scripts/containers/base-images.sh')]);
  run('bash', [join(root, 'scripts/containers/app-images.sh')]);
}

const commands = { up, down, images, healthy: () => waitHealthy(process.argv[3]) };
const command = commands[process.argv[2]];
if (!command) {
  console.error('usage: node scripts/containers/stack.mjs images|up|down|healthy <service>');
  process.exit(2);
}
Promise.resolve(command()).catch((error) => {
  console.error(error.message);
  process.exit(1);
});

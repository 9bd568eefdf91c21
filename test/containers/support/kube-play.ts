import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump, loadAll } from 'js-yaml';
import { podman, REPOSITORY_ROOT } from './podman';

/**
 * The console is left out: its Deployment sets it up in an init container, and podman 4.3's kube play
 * fails such a pod (it removes the init container while it still runs). Its manifest is checked
 * against the schemas only (test/ops/kubernetes); the gateway keeps the compose stack's console.
 */
export const PLAYED_APPS = ['management-api', 'auth-api', 'mail-worker'];
const GATEWAY = 'sesame-kube-gateway';

type Manifest = {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  spec?: { replicas?: number };
};
const manifestsOf = (file: string) => loadAll(readFileSync(join(REPOSITORY_ROOT, 'deploy/kubernetes', file), 'utf8')) as Manifest[];

/**
 * The app Deployments of deploy/kubernetes, as written, started by `podman kube play` on the compose
 * stack's network (its Postgres, Redis and mail catcher), one replica each, behind the gateway's own
 * nginx configuration pointed at the pods. What changes is only what a deployment fills in: the
 * ConfigMap's addresses and the Secret's values (a podman secret: podman 4 reads a JSON object of
 * base64 values, not a Secret object).
 */
export class KubePlay {
  private readonly folder = mkdtempSync(join(tmpdir(), 'sesame-kube-'));
  private readonly playFile = join(this.folder, 'play.yaml');

  constructor(private readonly secrets: Record<string, string>) {}

  start(): void {
    const config = manifestsOf('config.yaml')[0];
    Object.assign(config.data!, {
      PUBLIC_BASE_URL: 'http://localhost:3000/api',
      CONSOLE_PUBLIC_URL: 'http://localhost:3000/console',
      CONSOLE_SESAME_URL: 'http://gateway:3000/api',
    });
    const deployments = PLAYED_APPS.flatMap((app) => manifestsOf(`${app}.yaml`).filter((manifest) => manifest.kind === 'Deployment'));
    for (const deployment of deployments) deployment.spec!.replicas = 1;
    writeFileSync(this.playFile, [config, ...deployments].map((manifest) => dump(manifest)).join('---\n'));

    const secret = join(this.folder, 'secret.json');
    writeFileSync(
      secret,
      JSON.stringify(Object.fromEntries(Object.entries(this.secrets).map(([key, value]) => [key, Buffer.from(value).toString('base64')]))),
    );
    podman('secret', 'create', 'sesame-secrets', secret);
    podman('kube', 'play', '--network', 'sesame_default', this.playFile);

    // docker/nginx.conf with the pods' names (`<deployment>-pod-0`) as its upstream servers.
    const gatewayConfig = join(this.folder, 'nginx.conf');
    let nginx = readFileSync(join(REPOSITORY_ROOT, 'docker/nginx.conf'), 'utf8');
    for (const app of PLAYED_APPS) nginx = nginx.replace(new RegExp(`server ${app}:`, 'g'), `server ${app}-pod-0:`);
    writeFileSync(gatewayConfig, nginx);
    podman(
      'run',
      '-d',
      '--name',
      GATEWAY,
      '--network',
      'sesame_default',
      '--network-alias',
      'gateway',
      '-p',
      '3000:3000',
      '-v',
      `${gatewayConfig}:/etc/nginx/nginx.conf:ro`,
      'localhost/sesame-local/nginx:1',
    );
  }

  stop(): void {
    podman('rm', '--force', '--ignore', GATEWAY);
    podman('kube', 'down', this.playFile);
    podman('secret', 'rm', 'sesame-secrets');
    rmSync(this.folder, { recursive: true, force: true });
  }
}

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump, load, loadAll } from 'js-yaml';
import { REPOSITORY_ROOT } from './support/dockerfile';

/**
 * deploy/kubernetes, checked without a cluster: every object against the Kubernetes API schema of its
 * kind (scripts/validate-kubernetes.mjs, with kubernetes-models; also in `npm run lint`), and the rules the deployment relies on (probes, non-root, read-only,
 * routing as the gateway routes, every reference pointing at an object that exists).
 */
const FOLDER = join(REPOSITORY_ROOT, 'deploy/kubernetes');
const APPS = { 'management-api': 3001, 'auth-api': 3002, 'mail-worker': 3003, console: 3004 } as const;

type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- read field by field by the assertions below
  spec?: any;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
};

const kustomization = load(readFileSync(join(FOLDER, 'kustomization.yaml'), 'utf8')) as { resources: string[]; images: { name: string }[] };
const manifests = kustomization.resources.flatMap((file) => loadAll(readFileSync(join(FOLDER, file), 'utf8')) as Manifest[]);
const ofKind = (kind: string) => manifests.filter((manifest) => manifest.kind === kind);
const named = (kind: string, name: string) => ofKind(kind).find((manifest) => manifest.metadata.name === name);
const compose = load(readFileSync(join(REPOSITORY_ROOT, 'docker/compose.yml'), 'utf8')) as {
  services: Record<string, { command?: string[] }>;
};

/** scripts/validate-kubernetes.mjs on the files: each object's schema error, null when valid. */
function schemaErrors(files: string[]): { kind: string; name: string; error: string | null }[] {
  const result = spawnSync('node', ['scripts/validate-kubernetes.mjs', '--all', ...files], { cwd: REPOSITORY_ROOT, encoding: 'utf8' });
  return result.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

/** The schema errors of one object written to a file of its own. */
function schemaErrorOf(manifest: Manifest): string | null {
  const folder = mkdtempSync(join(tmpdir(), 'sesame-kubernetes-'));
  try {
    writeFileSync(join(folder, 'object.yaml'), dump(manifest));
    return schemaErrors([join(folder, 'object.yaml')])[0].error;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('deploy/kubernetes', () => {
  it('lists every manifest of the folder in its kustomization, each object valid against the Kubernetes API schema of its kind', () => {
    const files = readdirSync(FOLDER).filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml');
    expect([...kustomization.resources].sort()).toEqual(files.sort());
    const results = schemaErrors(kustomization.resources.map((file) => join(FOLDER, file)));
    expect(results).toHaveLength(manifests.length);
    for (const result of results) expect(result).toEqual(expect.objectContaining({ error: null }));
  });

  it('the schema check refuses what the API server would refuse (a wrong type, a missing required field)', () => {
    const deployment = structuredClone(named('Deployment', 'auth-api')!);
    expect(schemaErrorOf({ ...deployment, spec: { ...deployment.spec, replicas: 'two' } })).toMatch(/replicas/);
    const { selector: _selector, ...withoutSelector } = deployment.spec;
    expect(schemaErrorOf({ ...deployment, spec: withoutSelector })).toMatch(/selector/);
    expect(schemaErrorOf({ ...deployment, kind: 'Deploymnet' })).toMatch(/no schema/);
  });

  it.each(Object.entries(APPS))(
    'runs %s non-root on a read-only root filesystem, with probes on its port, resources and spread over nodes',
    (app, port) => {
      const deployment = named('Deployment', app)!;
      const pod = deployment.spec.template.spec;
      const [container] = pod.containers;
      expect(container.image).toBe(`sesame/${app}`);
      expect(container.ports).toEqual([{ name: 'http', containerPort: port }]);
      expect(pod.securityContext).toEqual(expect.objectContaining({ runAsNonRoot: true, runAsUser: 1000 }));
      expect(container.securityContext).toEqual(
        expect.objectContaining({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } }),
      );
      expect(container.readinessProbe.httpGet).toEqual({ path: '/api/health', port: 'http' });
      expect(container.startupProbe.httpGet).toEqual({ path: '/api/health', port: 'http' });
      expect(container.livenessProbe.tcpSocket).toEqual({ port: 'http' });
      expect(container.resources.requests).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
      expect(container.resources.limits.memory).toEqual(expect.any(String));
      expect(pod.topologySpreadConstraints.map((constraint: { topologyKey: string }) => constraint.topologyKey)).toContain(
        'kubernetes.io/hostname',
      );
      expect(deployment.spec.strategy.rollingUpdate).toEqual({ maxUnavailable: 0, maxSurge: 1 });
      expect(named('PodDisruptionBudget', app)!.spec.selector.matchLabels).toEqual(deployment.spec.selector.matchLabels);
    },
  );

  it('gives every app and job its configuration and secrets from objects that exist, and every image a tag in the kustomization', () => {
    const pods = [...ofKind('Deployment'), ...ofKind('Job')].map((workload) => workload.spec.template.spec);
    const containers = pods.flatMap((pod) => [...(pod.initContainers ?? []), ...pod.containers]);
    for (const container of containers) {
      expect(container.envFrom).toEqual([{ configMapRef: { name: 'sesame-config' } }, { secretRef: { name: 'sesame-secrets' } }]);
      expect(kustomization.images.map((image) => image.name)).toContain(container.image);
    }
    expect(named('ConfigMap', 'sesame-config')!.data).toEqual(
      expect.objectContaining({ HOST: '0.0.0.0', PUBLIC_BASE_URL: expect.stringMatching(/\/api$/) }),
    );
    expect(Object.keys(named('Secret', 'sesame-secrets')!.stringData!)).toEqual(
      expect.arrayContaining(['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'SECRETS_KEY', 'PLATFORM_API_KEY']),
    );
  });

  it('runs the migration as a Job and the console set-up before the console starts, with the commands of the compose file', () => {
    expect(named('Job', 'sesame-migrate')!.spec.template.spec.containers[0].command).toEqual(compose.services.migrate.command);
    const consolePod = named('Deployment', 'console')!.spec.template.spec;
    expect(consolePod.initContainers[0].command).toEqual(compose.services['console-setup'].command);
  });

  it('routes /api/v1, /api/v2 and /console as the gateway does, to Services that select a Deployment and name its port', () => {
    const [rule] = named('Ingress', 'sesame')!.spec.rules;
    const routes = Object.fromEntries(
      rule.http.paths.map((path: { path: string; pathType: string; backend: { service: { name: string } } }) => [
        path.path,
        path.backend.service.name,
      ]),
    );
    expect(routes).toEqual({ '/api/v1': 'auth-api', '/api/v2': 'management-api', '/console': 'console' });
    for (const service of ofKind('Service')) {
      const deployment = ofKind('Deployment').find((candidate) =>
        Object.entries(service.spec.selector).every(([label, value]) => candidate.spec.template.metadata.labels[label] === value),
      );
      expect([service.metadata.name, deployment?.metadata.name]).toEqual([service.metadata.name, service.metadata.name]);
      expect(service.spec.ports).toEqual([{ name: 'http', port: APPS[service.metadata.name as keyof typeof APPS], targetPort: 'http' }]);
    }
  });

  it('scales auth-api and management-api on CPU', () => {
    const targets = ofKind('HorizontalPodAutoscaler').map((hpa) => hpa.spec.scaleTargetRef);
    expect(targets).toEqual([
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'management-api' },
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'auth-api' },
    ]);
  });
});

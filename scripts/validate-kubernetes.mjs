// Checks Kubernetes manifests against the Kubernetes API schemas (kubernetes-models), without a cluster:
//   node scripts/validate-kubernetes.mjs [--all] deploy/kubernetes/*.yaml
// Prints a JSON line ({ file, kind, name, error }) per invalid object, or per object with --all, and
// exits 1 when one is invalid or of a kind it has no schema for. kustomization.yaml is skipped.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { loadAll } from 'js-yaml';
import * as apps from 'kubernetes-models/apps/v1';
import * as autoscaling from 'kubernetes-models/autoscaling/v2';
import * as batch from 'kubernetes-models/batch/v1';
import * as networking from 'kubernetes-models/networking.k8s.io/v1';
import * as policy from 'kubernetes-models/policy/v1';
import * as core from 'kubernetes-models/v1';

const modules = {
  v1: core,
  'apps/v1': apps,
  'autoscaling/v2': autoscaling,
  'batch/v1': batch,
  'networking.k8s.io/v1': networking,
  'policy/v1': policy,
};

function check(object) {
  const Model = modules[object?.apiVersion]?.[object?.kind];
  if (!Model) return `no schema for ${object?.apiVersion} ${object?.kind}`;
  try {
    new Model(object).validate();
    return null;
  } catch (error) {
    return error.message;
  }
}

const all = process.argv.includes('--all');
const files = process.argv.slice(2).filter((argument) => argument !== '--all' && basename(argument) !== 'kustomization.yaml');
let invalid = 0;
for (const file of files) {
  for (const object of loadAll(readFileSync(file, 'utf8')).filter(Boolean)) {
    const error = check(object);
    if (error) invalid++;
    if (error || all) console.log(JSON.stringify({ file, kind: object.kind, name: object.metadata?.name, error }));
  }
}
process.exit(invalid ? 1 : 0);

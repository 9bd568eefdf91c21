// npm records optional platform binaries (e.g. @swc/core-darwin-arm64) in package-lock.json only
// when the registry serves them. The registry this project is built against serves only this
// platform's, so `npm ci` refuses the lock as incomplete. This adds an optional placeholder for
// each missing one (npm skips optional packages it cannot fetch). Run it after `npm install`.
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const packages = lock.packages;
let added = 0;

for (const [location, entry] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    if (isResolvable(location, name)) continue;
    packages[`node_modules/${name}`] = { version: range.replace(/^[~^=]/, ''), optional: true };
    added += 1;
  }
}

/** Node's lookup: the package's own node_modules, then each parent's, up to the root. */
function isResolvable(location, name) {
  let base = location;
  for (;;) {
    if (packages[`${base ? `${base}/` : ''}node_modules/${name}`]) return true;
    if (!base) return false;
    const parent = base.lastIndexOf('/node_modules/');
    base = parent < 0 ? '' : base.slice(0, parent);
  }
}

writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} optional placeholder(s) added`);

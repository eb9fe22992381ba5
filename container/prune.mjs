// Run in the image's production install (`npm ci --omit=dev`) beside the compiled service (dist/): deletes every
// package the service never loads, which is most of what `--omit=dev` leaves of no use to it:
// - the dashboard's build tools and libraries (Vite, React, …): dependencies, so that an `npm install --omit=dev`
//   can still build web/dist, which the image has built already;
// - optional peers npm installs anyway (the Prisma CLI, with TypeScript, PGlite and SQLite, for @prisma/client:
//   the service migrates through the wasm schema engine).
// Kept: the dependencies dist/ names (import, import(), require), and what they reach through dependencies, optional
// dependencies and required peers, resolved as Node does (the nearest node_modules up the tree).
// Usage: node container/prune.mjs DIST_DIR (in the folder holding package.json and node_modules).
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

const { packages } = JSON.parse(readFileSync('node_modules/.package-lock.json', 'utf8'));
const dependencies = Object.keys(JSON.parse(readFileSync('package.json', 'utf8')).dependencies ?? {});

function namesLoadedBy(folder) {
  const names = new Set();
  const specifier = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire(?:\.resolve)?\s*\(\s*)['"]([^'"]+)['"]/g;
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
    for (const [, spec] of readFileSync(join(entry.parentPath, entry.name), 'utf8').matchAll(specifier)) {
      names.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
    }
  }
  return names;
}

function resolve(from, name) {
  for (let folder = from; ; folder = dirname(folder)) {
    const candidate = `${folder === '.' ? '' : `${folder}/`}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (folder === '.') return undefined;
  }
}

function required(entry) {
  const optionalPeers = entry.peerDependenciesMeta ?? {};
  const peers = Object.keys(entry.peerDependencies ?? {}).filter((name) => !optionalPeers[name]?.optional);
  return [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.optionalDependencies ?? {}), ...peers];
}

const loaded = namesLoadedBy(process.argv[2] ?? 'dist');
const kept = new Set();
const pending = [['.', dependencies.filter((name) => loaded.has(name))]];
while (pending.length > 0) {
  const [from, names] = pending.pop();
  for (const name of names) {
    const path = resolve(from, name);
    if (!path || kept.has(path)) continue;
    kept.add(path);
    pending.push([path, required(packages[path])]);
  }
}
const removed = Object.keys(packages).filter((path) => !kept.has(path));
for (const path of removed) rmSync(path, { recursive: true, force: true });
rmSync('node_modules/.bin', { recursive: true, force: true });
for (const scope of readdirSync('node_modules').filter((name) => name.startsWith('@'))) {
  if (readdirSync(join('node_modules', scope)).length === 0) rmSync(join('node_modules', scope), { recursive: true });
}
console.log(`kept ${kept.size} packages, deleted ${removed.length} the service never loads`);

// The oldest Node.js this service runs on is package.json's `engines.node` (">=X.Y.Z"). Every entry point calls
// requireSupportedNode() before it loads anything else, so an older Node stops with a clear message instead of
// crashing inside a dependency. Plain JavaScript so that bin/sps.js can run it before TypeScript can load.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../src/projectRoot.js';

const engines = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')).engines;

/** The minimum version from `engines.node`, e.g. "22.22.2". */
export function minimumNodeVersion() {
  const match = /^>=\s*(\d+\.\d+\.\d+)$/.exec(engines?.node ?? '');
  if (!match) throw new Error(`package.json engines.node must read ">=X.Y.Z", not "${engines?.node}"`);
  return match[1];
}

function isOlder(version, minimum) {
  const [a, b] = [version, minimum].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

/** Why this Node is too old, or null when it is recent enough. */
export function unsupportedNodeMessage(version = process.versions.node) {
  const minimum = minimumNodeVersion();
  if (!isOlder(version, minimum)) return null;
  return (
    `This service needs Node.js ${minimum} or newer (see "engines" in package.json), but this is Node.js ${version}. ` +
    'Install a current Node.js LTS release (24 or newer, https://nodejs.org) and run the command again.'
  );
}

export function requireSupportedNode() {
  const message = unsupportedNodeMessage();
  if (message === null) return;
  console.error(message);
  process.exit(1);
}

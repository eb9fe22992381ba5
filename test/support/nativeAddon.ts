// Native addons that use V8's API (better-sqlite3, which the local Bluesky PDS needs) are compiled for one Node
// version. After switching Node (nvm, a newer system Node) one built for the old version fails to load
// (ERR_DLOPEN_FAILED, "compiled against a different Node.js version"), and `npm rebuild` alone does not help where
// npm's config (nodedir) names another Node's headers: Debian's npm sets nodedir=/usr, Node 20's. So the check
// names the command that rebuilds it against the running Node's own headers, as .ci/run does.
// Plain type annotations only: the PDS's child process runs this file through Node's type stripping.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { projectRoot } from '../../src/projectRoot.js';

const require = createRequire(import.meta.url);

/** The folder with the running Node's own C headers (include/node), where its installation has them. */
export function runningNodeHeaders(): string | undefined {
  const prefix = resolve(process.execPath, '../..');
  // A Node from nodejs.org, nvm or a distribution keeps them in its prefix; the npm registry's `node` package in its
  // platform package.
  const candidates = [prefix, join(prefix, 'node_modules', `node-${process.platform}-${process.arch}`)];
  return candidates.find((folder) => {
    const version = join(folder, 'include/node/node_version.h');
    return existsSync(version) && new RegExp(`#define NODE_MAJOR_VERSION ${process.versions.node.split('.')[0]}\\b`).test(readFileSync(version, 'utf8'));
  });
}

/** The one command that rebuilds the addon package `name` for the running Node. */
export function rebuildCommand(name: string): string {
  const headers = runningNodeHeaders();
  return `${headers ? `npm_config_nodedir=${headers} ` : ''}npm rebuild ${name}`;
}

/** Why the compiled addon file of package `name` does not load in this Node, with the fix; null when it loads. */
export function addonLoadProblem(name: string, addonFile: string): string | null {
  try {
    require(addonFile);
    return null;
  } catch (error) {
    // Node's own text for an addon of another version spans lines: "…compiled against a different Node.js version
    // using NODE_MODULE_VERSION 115. This version of Node.js requires NODE_MODULE_VERSION 137…".
    const reason = String((error as Error).message).replace(/\s*\n\s*/g, ' ');
    return (
      `${name} does not load on Node ${process.version}: ${reason}\n` +
      `It was built for another Node version (or not at all). Rebuild it for this one, in ${projectRoot}:\n  ${rebuildCommand(name)}`
    );
  }
}

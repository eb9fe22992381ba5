// Native addons that use V8's API (better-sqlite3, which the local Bluesky PDS needs) are compiled for one Node
// version. npm does not build better-sqlite3 at install (package.json's allowScripts denies its script): its script
// fetches a prebuilt binary from GitHub and else Node's headers from nodejs.org, and fails `npm install` on a machine
// that reaches only the npm registry, although only these tests need it. The tiers that start the PDS build it first
// (test/support/addonSetup.ts) against the running Node's own headers where its installation has them (the npm
// registry's Node does), so that nothing but the registry is needed; elsewhere its script fetches what it needs.
// After switching Node (nvm, a newer system Node) an addon built for the old version fails to load
// (ERR_DLOPEN_FAILED, "compiled against a different Node.js version"); the same build fixes it, and the check names it.
// Plain type annotations only: the PDS's child process runs this file through Node's type stripping.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { projectRoot } from '../../src/projectRoot.js';

const require = createRequire(import.meta.url);

/** The compiled addon better-sqlite3 loads (its build writes it). */
export function betterSqliteAddon(): string {
  return join(dirname(require.resolve('better-sqlite3/package.json')), 'build/Release/better_sqlite3.node');
}

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

/** The addon package's own build (its install script), for the running Node: the command and its environment. */
export function buildStep(name: string): { command: string; args: string[]; env: Record<string, string> } {
  const headers = runningNodeHeaders();
  return { command: 'npm', args: ['--prefix', join('node_modules', name), 'run', 'install'], env: headers ? { npm_config_nodedir: headers } : {} };
}

/** The one command that builds the addon package `name` for the running Node, run in the project's folder. */
export function rebuildCommand(name: string): string {
  const { command, args, env } = buildStep(name);
  return [...Object.entries(env).map(([key, value]) => `${key}=${value}`), command, ...args].join(' ');
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
      `It was built for another Node version (or not yet). Build it for this one, in ${projectRoot}:\n  ${rebuildCommand(name)}`
    );
  }
}

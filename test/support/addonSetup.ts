// Before a tier that starts the local Bluesky PDS: better-sqlite3 (its database driver, which npm does not build at
// install: test/support/nativeAddon.ts) built for the running Node, once; a build that loads is left as it is.
import { spawnSync } from 'node:child_process';
import { projectRoot } from '../../src/projectRoot.js';
import { addonLoadProblem, betterSqliteAddon, buildStep } from './nativeAddon.ts';

export default function setup(): void {
  if (addonLoadProblem('better-sqlite3', betterSqliteAddon()) === null) return;
  const { command, args, env } = buildStep('better-sqlite3');
  console.log(`test setup: building better-sqlite3 for Node ${process.version} (the local Bluesky server needs it): a minute or two of compiling, once`);
  const build = spawnSync(command, args, { cwd: projectRoot, env: { ...process.env, ...env }, encoding: 'utf8' });
  const problem = addonLoadProblem('better-sqlite3', betterSqliteAddon());
  if (build.status !== 0 || problem) throw new Error(`${problem ?? 'better-sqlite3 did not build'}\n${`${build.stdout}${build.stderr}`.slice(-3000)}`);
}

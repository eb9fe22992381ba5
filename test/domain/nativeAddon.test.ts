// The test set-up's check of a native addon (test/support/nativeAddon.ts, run first by the local Bluesky PDS): one
// that does not load in this Node is reported at once, with the command that rebuilds it for this Node.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addonLoadProblem, rebuildCommand, runningNodeHeaders } from '../support/nativeAddon.ts';

const folder = mkdtempSync(join(tmpdir(), 'sps-addon-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('native addon check', () => {
  it('reports an addon that does not load, with the command that rebuilds it for the running Node', () => {
    // What a build for another platform or Node looks like to dlopen: a file it cannot load.
    const addon = join(folder, 'broken.node');
    writeFileSync(addon, 'not a shared library');
    const problem = addonLoadProblem('better-sqlite3', addon);
    expect(problem).toContain(`better-sqlite3 does not load on Node ${process.version}: `);
    expect(problem).toMatch(/\n {2}(npm_config_nodedir=\S+ )?npm --prefix node_modules\/better-sqlite3 run install$/);
    expect(problem).toContain(rebuildCommand('better-sqlite3'));
  });

  it('reports a missing build the same way (not built yet: npm does not build it at install)', () => {
    expect(addonLoadProblem('better-sqlite3', join(folder, 'missing.node'))).toContain(rebuildCommand('better-sqlite3'));
  });

  it("names the running Node's own headers, never another version's", () => {
    const headers = runningNodeHeaders();
    if (headers === undefined) {
      expect(rebuildCommand('x')).toBe('npm --prefix node_modules/x run install');
      return;
    }
    const version = readFileSync(join(headers, 'include/node/node_version.h'), 'utf8');
    expect(version).toContain(`#define NODE_MAJOR_VERSION ${process.versions.node.split('.')[0]}\n`);
    expect(rebuildCommand('x')).toBe(`npm_config_nodedir=${headers} npm --prefix node_modules/x run install`);
  });
});

// The process tier's globalSetup: process tests run the compiled entry points (dist/), so a run builds them first
// when a source is newer than its output (`npm test` has already built them; `npx vitest run <file>` may not have).
import { execFileSync } from 'node:child_process';
import { projectRoot } from '../../src/projectRoot.js';
import { staleBuildInputs } from './compiledOutput.ts';

export default function setup() {
  if (staleBuildInputs().length === 0) return;
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { cwd: projectRoot, stdio: 'inherit' });
}

// The compiled JavaScript in dist/ (`npm run build`, run on install and before `npm test`) that `sps`, `npm start`,
// `npm run cli` and `npm run mcp` run. Tests and benchmarks of those entry points check first that it was built from
// the sources as they are now: an older build would test old code and pass or fail for the wrong reason.
import { existsSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { projectRoot } from '../../src/projectRoot.js';

/** The build's inputs (as tsconfig.build.json selects them) whose output in dist/ is missing or older. */
export function staleBuildInputs(): string[] {
  const configFile = join(projectRoot, 'tsconfig.build.json');
  const { config, error } = ts.readConfigFile(configFile, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const build = ts.parseJsonConfigFileContent(config, ts.sys, projectRoot, undefined, configFile);
  return build.fileNames.filter((input) => {
    if (input.endsWith('.d.ts')) return false;
    const [output] = ts.getOutputFileNames(build, input, false);
    return !output || !existsSync(output) || statSync(output).mtimeMs < statSync(input).mtimeMs;
  });
}

export function requireCurrentBuild(): void {
  const stale = staleBuildInputs();
  if (stale.length === 0) return;
  const named = stale
    .slice(0, 3)
    .map((input) => relative(projectRoot, input))
    .join(', ');
  throw new Error(`dist/ is older than ${stale.length} source file(s) (${named}${stale.length > 3 ? ', …' : ''}): run \`npm run build\` first`);
}

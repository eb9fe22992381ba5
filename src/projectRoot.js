// The project's folder (the one holding package.json), for the files read at run time from outside the compiled
// code: package.json, prisma/, rest/openapi.yaml, web/dist/. Found by walking up from this module rather than by a
// fixed number of '../', because the same module runs from src/ (tests, tsx) and from dist/src/ (`npm run build`).
// Plain JavaScript so that bin/supportedNode.js can use it on any Node version, before TypeScript can load.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function folderWithPackageJson(start) {
  for (let folder = start; ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json'))) return folder;
    if (dirname(folder) === folder) throw new Error(`no package.json in ${start} or above it`);
  }
}

export const projectRoot = folderWithPackageJson(dirname(fileURLToPath(import.meta.url)));

// The OpenAPI document passes the linters a user's tooling runs: Redocly's recommended ruleset (redocly.yaml)
// and Spectral's OpenAPI ruleset (.spectral.yaml), with no error and no warning. A rule may only be turned off
// in those files, with its reason written beside it.
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { openapiDocument } from '../../rest/openapiDocument.ts';
import { projectRoot } from '../support/processes.ts';

const documentPath = join(projectRoot, 'rest/openapi.yaml');

interface Problem {
  rule: string;
  message: string;
  where: string;
}

async function runLinter(bin: string, args: string[]): Promise<string> {
  const script = realpathSync(join(projectRoot, 'node_modules/.bin', bin));
  // Both exit non-zero when they find errors; the findings are in the JSON on stdout either way.
  const result = await promisify(execFile)(process.execPath, [script, ...args], {
    cwd: projectRoot,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { stdout?: string; stderr?: string }) => {
    if (!error.stdout) throw new Error(`${bin} printed no findings: ${error.stderr}`);
    return { stdout: error.stdout };
  });
  return result.stdout;
}

async function redocly(path: string): Promise<Problem[]> {
  const output = JSON.parse(await runLinter('redocly', ['lint', path, '--config', join(projectRoot, 'redocly.yaml'), '--format', 'json']));
  return (output.problems as { ruleId: string; message: string; location: { pointer: string }[] }[]).map((problem) => ({
    rule: problem.ruleId,
    message: problem.message,
    where: problem.location[0]?.pointer ?? '',
  }));
}

async function spectral(path: string): Promise<Problem[]> {
  const output = JSON.parse(await runLinter('spectral', ['lint', path, '--ruleset', join(projectRoot, '.spectral.yaml'), '--format', 'json', '--quiet']));
  return (output as { code: string; message: string; path: string[] }[]).map((problem) => ({
    rule: problem.code,
    message: problem.message,
    where: problem.path.join('.'),
  }));
}

/** The document with two defects of the kind the linters exist for. */
function brokenDocument(): string {
  const document = structuredClone(openapiDocument) as any;
  // A description cut at an unquoted comma in a YAML flow mapping parses as an unexpected property.
  document.components.schemas.Media.properties.url = { type: ['string', 'null'], description: 'Signed', 'expiring URL of the file (when ready).': null };
  document.paths['/posts'].get.operationId = document.paths['/posts'].post.operationId;
  const path = join(mkdtempSync(join(tmpdir(), 'sps-openapi-')), 'openapi.yaml');
  writeFileSync(path, stringify(document));
  return path;
}

describe('the OpenAPI document under lint', () => {
  it("passes Redocly's recommended rules without an error or a warning", async () => {
    expect(await redocly(documentPath)).toEqual([]);
  });

  it("passes Spectral's OpenAPI rules without an error or a warning", async () => {
    expect(await spectral(documentPath)).toEqual([]);
  });

  it('would fail on a new defect: both linters report one', async () => {
    const broken = brokenDocument();
    expect(await redocly(broken)).toContainEqual(
      expect.objectContaining({ rule: 'struct', where: expect.stringContaining('#/components/schemas/Media/properties/url/') }),
    );
    expect(await spectral(broken)).toContainEqual(expect.objectContaining({ rule: 'operation-operationId-unique' }));
  });
});

// Every outgoing call goes through a client we chose (NetworkHttp, networkFetch, undici with a pinned or guarded
// agent), never the global fetch: that one has no SSRF guard, so a URL a person or a network named (an instance's
// token endpoint, a PDS, a redirect) could reach inside. Libraries that call fetch themselves get ours instead:
// oauth4webapi through `customFetch`, the atproto client through its `fetch` option.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const sourceDirectories = ['src', 'rest', 'mcp', 'schema'];

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The code of a file without its comments (which may well mention fetch). */
const codeOf = (path: string) =>
  readFileSync(path, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:])\/\/.*$/gm, '$1');

const files = sourceDirectories.flatMap((directory) => sourceFiles(join(root, directory))).map((path) => ({ name: relative(root, path), code: codeOf(path) }));

describe('outgoing calls', () => {
  it('never use the global fetch', () => {
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.filter(({ code }) => /(?<![\w$.])fetch\s*\(|\b(?:globalThis|window|global|self)\s*\.\s*fetch\b/.test(code));
    expect(offenders.map(({ name }) => name)).toEqual([]);
  });

  it('give oauth4webapi our fetch wherever it sends a request', () => {
    const senders = files.filter(({ code }) => /from 'oauth4webapi'/.test(code) && /\boauth\.\w+(?:Request|GrantRequest)\s*\(/.test(code));
    expect(senders.length).toBeGreaterThan(0);
    expect(senders.filter(({ code }) => !code.includes('[oauth.customFetch]')).map(({ name }) => name)).toEqual([]);
  });

  it('give the atproto client our fetch wherever one is made', () => {
    // `new Agent({...})`, or `new (await atproto()).Agent({...})` where the SDK is loaded when first needed.
    const atprotoFiles = files.filter(({ code }) => /from '@atproto\/api'|import\('@atproto\/api'\)/.test(code));
    const made = atprotoFiles.flatMap(({ name, code }) =>
      [...code.matchAll(/new\s[^;]*?\bAgent\s*\(([^)]*)\)/g)].map((match) => ({ name, options: match[1]! })),
    );
    expect(made.length).toBeGreaterThan(0);
    expect(made.filter(({ options }) => !/\bfetch\b/.test(options)).map(({ name }) => name)).toEqual([]);
  });
});

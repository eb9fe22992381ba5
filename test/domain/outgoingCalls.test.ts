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
    const agents = files.filter(({ code }) => /from '@atproto\/api'/.test(code) && /new Agent\s*\(/.test(code));
    expect(agents.length).toBeGreaterThan(0);
    expect(agents.filter(({ code }) => !/new Agent\s*\(\s*\{[^}]*\bfetch\b/.test(code)).map(({ name }) => name)).toEqual([]);
  });
});

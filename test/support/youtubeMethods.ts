// The YouTube Data API's methods as Google's own Node client, @googleapis/youtube, declares them: generated from
// Google's discovery document for YouTube Data API v3 (the document itself is not shipped, nor reachable offline), each
// method's HTTP method, path (and media upload path) and required parameters. What the adapter sends to the stand-in
// is checked against them (test/http/youtube.test.ts), so neither can drift from what Google publishes.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface ClientMethod {
  httpMethod: string;
  path: string;
  mediaPath?: string;
  requiredParams: string[];
}

export function youtubeClientMethods(): ClientMethod[] {
  const entry = createRequire(import.meta.url).resolve('@googleapis/youtube');
  const source = readFileSync(join(dirname(entry), 'v3.js'), 'utf8');
  const declared = /url: \(rootUrl \+ '([^']+)'\)[\s\S]*?method: '(\w+)'[\s\S]*?(?:mediaUrl: \(rootUrl \+ '([^']+)'\)[\s\S]*?)?requiredParams: \[([^\]]*)\]/g;
  return [...source.matchAll(declared)].map(([, path, httpMethod, mediaPath, required]) => ({
    httpMethod: httpMethod!,
    path: path!,
    ...(mediaPath ? { mediaPath } : {}),
    requiredParams: [...required!.matchAll(/'([^']+)'/g)].map((match) => match[1]!),
  }));
}

/** The client's method a request is a call of (same HTTP method and path, every required parameter given); else null. */
export function methodOf(methods: readonly ClientMethod[], request: { method: string; path: string }): ClientMethod | null {
  const url = new URL(request.path, 'http://stand-in');
  return (
    methods.find(
      (method) =>
        method.httpMethod === request.method &&
        (method.path === url.pathname || method.mediaPath === url.pathname) &&
        method.requiredParams.every((name) => url.searchParams.has(name)),
    ) ?? null
  );
}

// Browser security headers on every kind of answer: the dashboard's page and GraphiQL's under a policy that runs only
// their own scripts, API answers under one that loads nothing, and media files served so that no browser runs them
// in the service's origin: sandboxed, never sniffed, and downloaded unless they are a picture or a video.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { bearer, type TestWorkspace } from '../support/fixtures.ts';
import type { Api } from '../support/posts.ts';
import { storageKeys } from '../../src/media/storage.ts';
import { graphiqlPage } from '../../schema/yoga.ts';

let service: TestService;
let acme: TestWorkspace;
let api: Api;

beforeAll(async () => ({ service, acme, api } = await serviceWithWorkspace()));
afterAll(() => service.stop());

/** A policy's directives by name, each with its sources. */
function directivesOf(response: Response): Record<string, string[]> {
  const policy = response.headers.get('content-security-policy');
  expect(policy, response.url).toBeTruthy();
  return Object.fromEntries(
    policy!
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .map(([name, ...sources]) => [name!, sources]),
  );
}

function expectCommonHeaders(response: Response) {
  expect(response.headers.get('x-content-type-options'), response.url).toBe('nosniff');
  expect(response.headers.get('referrer-policy'), response.url).toBe('strict-origin-when-cross-origin');
  expect(directivesOf(response)['frame-ancestors'], response.url).toEqual(["'none'"]);
}

describe('pages', () => {
  it('the dashboard runs only its own files: no inline script or style, calls to its own origin alone', async () => {
    const page = await fetch(`${service.url}/calendar`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expectCommonHeaders(page);
    const directives = directivesOf(page);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['style-src']).toEqual(["'self'"]);
    expect(directives['connect-src']).toEqual(["'self'", new URL(service.services.config.publicBaseUrl).origin]);
    // Account avatars are on the networks' hosts.
    expect(directives['img-src']).toEqual(["'self'", new URL(service.services.config.publicBaseUrl).origin, 'https:']);
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['base-uri']).toEqual(["'none'"]);
    expect(Object.values(directives).flat()).not.toContain("'unsafe-inline'");
    expect(Object.values(directives).flat()).not.toContain("'unsafe-eval'");
  });

  it('GraphiQL runs its one inline script by its hash, and nothing else', async () => {
    const page = await fetch(`${service.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await graphiqlPage();
    expect(await page.text()).toBe(html);
    expectCommonHeaders(page);
    const directives = directivesOf(page);
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(directives['script-src']).toEqual([`'sha256-${createHash('sha256').update(script).digest('base64')}'`]);
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['connect-src']).toEqual(["'self'"]);
  });
});

describe('API answers', () => {
  it('load nothing and may be framed nowhere, whatever the route and status', async () => {
    const answers = [
      await fetch(`${service.url}/v1/posts`, { headers: bearer(acme.ownerKey) }),
      await fetch(`${service.url}/v1/posts`),
      await fetch(`${service.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(acme.ownerKey) },
        body: '{"query":"{ viewer { role } }"}',
      }),
      await fetch(`${service.url}/healthz`),
      await fetch(`${service.url}/no-such-route`),
      await fetch(`${service.url}/auth/session`),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 401, 200, 200, 404, 401]);
    for (const answer of answers) {
      expectCommonHeaders(answer);
      expect(directivesOf(answer)['default-src'], answer.url).toEqual(["'none'"]);
    }
  });
});

describe('media files', () => {
  /** A ready media file of `mimeType` (as if processing had found that type), and the signed URL of its original. */
  async function mediaFile(filename: string, mimeType: string, bytes: string): Promise<string> {
    const started = await api('POST', '/media/uploads', { filename, contentType: 'application/octet-stream', size: bytes.length });
    expect(started.status).toBe(201);
    const { id } = started.body.data;
    await service.services.storage.write(storageKeys.original(id), Readable.from([Buffer.from(bytes)]), bytes.length);
    await service.services.db.prisma.media.update({ where: { id }, data: { status: 'ready', type: 'image', mimeType } });
    const { body } = await api('GET', `/media/${id}`);
    return body.data.url.replace(service.services.config.publicBaseUrl, service.url);
  }

  it('are sandboxed and never sniffed; pictures and videos open in the browser, any other type downloads', async () => {
    const script = '<script>parent.stolen = document.cookie</script>';
    for (const [filename, mimeType, disposition] of [
      ['photo (1).png', 'image/png', "inline; filename*=UTF-8''photo%20%281%29.png"],
      ['clip.mp4', 'video/mp4', "inline; filename*=UTF-8''clip.mp4"],
      ['page.html', 'text/html', "attachment; filename*=UTF-8''page.html"],
      ['drawing.svg', 'image/svg+xml', "attachment; filename*=UTF-8''drawing.svg"],
      ["it's.xml", 'application/xml', "attachment; filename*=UTF-8''it%27s.xml"],
    ]) {
      const file = await fetch(await mediaFile(filename!, mimeType!, script));
      expect(file.status, mimeType).toBe(200);
      expect(file.headers.get('content-type'), mimeType).toBe(mimeType);
      expect(file.headers.get('content-disposition'), mimeType).toBe(disposition);
      expect(file.headers.get('x-content-type-options'), mimeType).toBe('nosniff');
      const directives = directivesOf(file);
      expect(directives['default-src'], mimeType).toEqual(["'none'"]);
      expect(directives.sandbox, mimeType).toEqual(['allow-same-origin']);
      expect(directives['script-src'], mimeType).toBeUndefined();
      expect(await file.text()).toBe(script);
    }
  });
});

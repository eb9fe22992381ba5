// A local feed host for the feeds tests: RSS 2.0 and Atom documents whose items a test adds, answered with the
// validators and conditional-request handling real feed hosts use, and failures a test switches on.
//
// Evidence per behaviour:
// - RSS 2.0 items with `<guid>` (isPermaLink="false" for an opaque id) or only a `<link>`: the RSS 2.0
//   specification, https://www.rssboard.org/rss-specification#hrelementsOfLtitemgt ("guid ... uniquely identifies the item").
// - Atom entries with `<id>` and `<link rel="alternate" href>`: RFC 4287 §4.1.2, §4.2.6, §4.2.7.
// - ETag / If-None-Match and Last-Modified / If-Modified-Since answered with 304 Not Modified and no body:
//   RFC 9110 §8.8.2, §8.8.3, §13.1.1, §13.1.3, §15.4.5.
// - 503 with Retry-After (seconds): RFC 9110 §10.2.3, §15.6.4. A 302 with Location: RFC 9110 §10.2.2, §15.4.3.
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pourWithoutEnd } from './endless.ts';

export interface FeedItemFixture {
  title: string;
  link: string;
  /** RSS: the guid (absent: the item has only its link). Atom: the entry's id (always given there). */
  id?: string;
}

export interface FeedDocument {
  format: 'rss' | 'atom';
  /** Newest first, as feeds list them. */
  items: FeedItemFixture[];
  /** Answer with this status (and Retry-After) instead of the feed. */
  failWith?: { status: number; retryAfter?: string };
  /** Answer without end (a broken or hostile host). */
  endless?: boolean;
  /** Answer a page that is not a feed. */
  html?: boolean;
  /** Answer 302 to this URL. */
  redirectTo?: string;
}

export interface FeedHost {
  url(path: string): string;
  /** The document at `path` (created on first use: an empty RSS feed). */
  feed(path: string, format?: 'rss' | 'atom'): FeedDocument;
  /** Every request's path and headers, in order. */
  requests: { path: string; headers: IncomingHttpHeaders; status: number }[];
  close(): Promise<void>;
}

const xmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function rss(items: FeedItemFixture[]): string {
  const entries = items
    .map(
      (item) =>
        `<item><title>${xmlText(item.title)}</title><link>${xmlText(item.link)}</link>${item.id ? `<guid isPermaLink="false">${xmlText(item.id)}</guid>` : ''}</item>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Test blog</title><link>https://blog.example/</link><description>Posts</description>${entries}</channel></rss>`;
}

function atom(items: FeedItemFixture[]): string {
  const entries = items
    .map(
      (item) =>
        `<entry><title>${xmlText(item.title)}</title><id>${xmlText(item.id ?? item.link)}</id><link rel="alternate" href="${xmlText(item.link)}"/><updated>2026-11-30T12:00:00Z</updated></entry>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Test blog</title><id>urn:test:blog</id><updated>2026-11-30T12:00:00Z</updated>${entries}</feed>`;
}

export async function startFeedHost(): Promise<FeedHost> {
  const documents = new Map<string, FeedDocument>();
  const requests: FeedHost['requests'] = [];
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://host').pathname;
    const document = documents.get(path);
    const answer = (status: number) => requests.push({ path, headers: request.headers, status });
    if (!document) {
      answer(404);
      return response.writeHead(404).end();
    }
    if (document.failWith) {
      answer(document.failWith.status);
      return response.writeHead(document.failWith.status, document.failWith.retryAfter ? { 'retry-after': document.failWith.retryAfter } : {}).end();
    }
    if (document.redirectTo) {
      answer(302);
      return response.writeHead(302, { location: document.redirectTo }).end();
    }
    if (document.endless) {
      answer(200);
      pourWithoutEnd(response, '<?xml version="1.0"?><rss version="2.0"><channel>', { 'content-type': 'application/rss+xml' });
      return;
    }
    if (document.html) {
      answer(200);
      return response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html><body>Not a feed</body></html>');
    }
    const body = document.format === 'rss' ? rss(document.items) : atom(document.items);
    // The validators change with the content: a strong ETag for RSS, Last-Modified for Atom (both styles are common).
    const version = createHash('sha256').update(JSON.stringify(document.items)).digest().readUInt32BE(0);
    if (document.format === 'rss') {
      const etag = `"v${version}"`;
      if (request.headers['if-none-match'] === etag) {
        answer(304);
        return response.writeHead(304, { etag }).end();
      }
      answer(200);
      return response.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8', etag }).end(body);
    }
    const lastModified = new Date(Date.UTC(2020, 0, 1) + (version % 100_000_000) * 1000).toUTCString();
    if (request.headers['if-modified-since'] === lastModified) {
      answer(304);
      return response.writeHead(304, { 'last-modified': lastModified }).end();
    }
    answer(200);
    return response.writeHead(200, { 'content-type': 'application/atom+xml', 'last-modified': lastModified }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    feed(path, format = 'rss') {
      if (!documents.has(path)) documents.set(path, { format, items: [] });
      return documents.get(path)!;
    },
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

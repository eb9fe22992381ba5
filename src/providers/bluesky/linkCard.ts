// The link card (app.bsky.embed.external) of a post with a link and no media: the page's title and description,
// read from its Open Graph tags (else <title> and the description meta tag). The page is fetched under the SSRF
// guard (public addresses only, unless the operator allows the host; the connection goes to the checked
// address), with a short timeout, at most 3 redirects (each checked) and only the first 256 KiB read. A page that
// cannot be read still gets a card: its URL as the title and an empty description, so the post always shows it.
import { request } from 'undici';
import { checkDestination, pinnedAgent } from '../../outbound/guard.ts';

export interface LinkCard {
  uri: string;
  title: string;
  description: string;
}

const timeoutMs = 5000;
const maxRedirects = 3;
const maxHtmlBytes = 256 * 1024;

export async function linkCardFor(url: string, allowedHosts: ReadonlySet<string>, signal: AbortSignal): Promise<LinkCard> {
  const page = await fetchHtml(url, allowedHosts, AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)])).catch(() => null);
  if (signal.aborted) throw signal.reason;
  const title = page ? (metaContent(page, ['og:title', 'twitter:title']) ?? titleOf(page)) : null;
  const description = page ? metaContent(page, ['og:description', 'twitter:description', 'description']) : null;
  return { uri: url, title: (title ?? url).slice(0, 300), description: (description ?? '').slice(0, 1000) };
}

async function fetchHtml(start: string, allowedHosts: ReadonlySet<string>, signal: AbortSignal): Promise<string | null> {
  let url = start;
  for (let hop = 0; hop <= maxRedirects; hop++) {
    const destination = await checkDestination(url, allowedHosts);
    const agent = pinnedAgent(destination);
    try {
      const response = await request(destination.url, {
        method: 'GET',
        headers: { accept: 'text/html', 'user-agent': 'social-publishing-service (link preview)' },
        dispatcher: agent,
        signal,
      });
      const location = response.headers.location;
      if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string') {
        await response.body.dump();
        url = new URL(location, destination.url).toString();
        continue;
      }
      if (response.statusCode !== 200 || !String(response.headers['content-type'] ?? '').includes('html')) {
        await response.body.dump();
        return null;
      }
      return await readPrefix(response.body, maxHtmlBytes);
    } finally {
      // Ends an answer left unread (a failure reading it); undici destroys its body with an error listener of its own.
      await agent.destroy();
    }
  }
  return null;
}

async function readPrefix(body: AsyncIterable<Buffer> & { destroy(): void }, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) break;
  }
  body.destroy();
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

const attributePattern = /([a-zA-Z:-]+)\s*=\s*("([^"]*)"|'([^']*)')/g;

function metaContent(html: string, names: string[]): string | null {
  const found = new Map<string, string>();
  for (const [tag] of html.matchAll(/<meta\b[^>]*>/gi)) {
    const attributes = new Map([...tag.matchAll(attributePattern)].map((match) => [match[1]!.toLowerCase(), match[3] ?? match[4] ?? '']));
    const name = (attributes.get('property') ?? attributes.get('name'))?.toLowerCase();
    const content = attributes.get('content');
    if (name && content && !found.has(name)) found.set(name, decodeEntities(content).trim());
  }
  for (const name of names) if (found.get(name)) return found.get(name)!;
  return null;
}

function titleOf(html: string): string | null {
  const title = /<title\b[^>]*>([^<]*)<\/title>/i.exec(html)?.[1];
  return title ? decodeEntities(title).replace(/\s+/g, ' ').trim() || null : null;
}

const namedEntities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return namedEntities[body.toLowerCase()] ?? entity;
  });
}

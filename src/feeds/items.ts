// What a feed's text holds: its items, each with the key that makes it once (its guid, else its link), its title
// and its link. RSS 2.0 and Atom are read by feedsmith (docs/architecture.md says why); anything else is refused.
import { parseFeed } from 'feedsmith';

export interface FeedEntry {
  key: string;
  title: string;
  link: string | null;
}

export class UnreadableFeed extends Error {
  override readonly name = 'UnreadableFeed';
}

type Text = string | { value?: string } | undefined;
const textOf = (text: Text) => (typeof text === 'string' ? text : (text?.value ?? '')).trim();

/** Atom's link for people: `rel="alternate"` (the default rel), else the first with an href. */
function atomLink(links: readonly { href?: string; rel?: string }[] | undefined): string | null {
  const alternate = links?.find((link) => link.href && (link.rel ?? 'alternate') === 'alternate') ?? links?.find((link) => link.href);
  return alternate?.href?.trim() || null;
}

/** The items, newest first as feeds list them; an item with neither guid nor link (nothing to know it by) is left out. */
export function feedEntries(text: string): FeedEntry[] {
  let parsed: ReturnType<typeof parseFeed>;
  try {
    parsed = parseFeed(text);
  } catch {
    throw new UnreadableFeed('The answer is not an RSS 2.0 or Atom feed.');
  }
  const entries: (FeedEntry | null)[] =
    parsed.format === 'rss'
      ? (parsed.feed.items ?? []).map((item) => {
          const link = item.link?.trim() || null;
          const key = item.guid?.value?.trim() || link;
          return key ? { key, title: textOf(item.title), link } : null;
        })
      : parsed.format === 'atom'
        ? (parsed.feed.entries ?? []).map((entry) => {
            const link = atomLink(entry.links);
            const key = entry.id?.trim() || link;
            return key ? { key, title: textOf(entry.title as Text), link } : null;
          })
        : (() => {
            throw new UnreadableFeed(`The answer is a ${parsed.format} feed; only RSS 2.0 and Atom are read.`);
          })();
  return entries.filter((entry): entry is FeedEntry => entry !== null);
}

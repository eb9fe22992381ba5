// What a feed's text yields (src/feeds/items.ts), the caption an item becomes (template.ts) and how long a failing
// feed waits (poller.ts), without a database.
import { describe, expect, it } from 'vitest';
import { feedEntries, UnreadableFeed } from '../../src/feeds/items.ts';
import { renderTemplate, templateDetails } from '../../src/feeds/template.ts';
import { backoffSeconds } from '../../src/feeds/poller.ts';

describe('feed entries', () => {
  it('knows an RSS item by its guid, else its link, and leaves out one with neither', () => {
    // RSS 2.0 <item>: https://www.rssboard.org/rss-specification#hrelementsOfLtitemgt
    const rss = `<?xml version="1.0"?><rss version="2.0"><channel><title>B</title><link>https://b.example/</link><description>d</description>
      <item><title>With guid &amp; link</title><link>https://b.example/1</link><guid isPermaLink="false">urn:b:1</guid></item>
      <item><title>Link only</title><link>https://b.example/2</link></item>
      <item><title>Neither</title><description>no way to know it again</description></item>
    </channel></rss>`;
    expect(feedEntries(rss)).toEqual([
      { key: 'urn:b:1', title: 'With guid & link', link: 'https://b.example/1' },
      { key: 'https://b.example/2', title: 'Link only', link: 'https://b.example/2' },
    ]);
  });

  it('knows an Atom entry by its id and links it by rel="alternate" (the default rel)', () => {
    // RFC 4287 §4.1.2 (atom:entry), §4.2.6 (atom:id), §4.2.7.2 (rel defaults to "alternate")
    const atom = `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>A</title><id>urn:a</id><updated>2026-01-01T00:00:00Z</updated>
      <entry><title type="text">First</title><id>tag:a,2026:1</id><link rel="edit" href="https://a.example/edit/1"/><link href="https://a.example/1"/><updated>2026-01-01T00:00:00Z</updated></entry>
    </feed>`;
    expect(feedEntries(atom)).toEqual([{ key: 'tag:a,2026:1', title: 'First', link: 'https://a.example/1' }]);
  });

  it('refuses what is not RSS 2.0 or Atom', () => {
    expect(() => feedEntries('<html><body>hello</body></html>')).toThrow(UnreadableFeed);
    expect(() => feedEntries(JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', title: 'J', items: [{ id: '1' }] }))).toThrow(
      'The answer is a json feed; only RSS 2.0 and Atom are read.',
    );
  });
});

describe('templates', () => {
  it('fills {{title}} and {{link}} and names any other placeholder', () => {
    expect(renderTemplate('New: {{ title }} {{link}}', { key: 'k', title: 'Hello', link: 'https://b.example/h' })).toBe('New: Hello https://b.example/h');
    expect(renderTemplate('{{title}} {{link}}', { key: 'k', title: 'No link', link: null })).toBe('No link');
    expect(templateDetails('{{title}} {{summary}}')).toEqual([
      expect.objectContaining({ field: 'template', code: 'unknownPlaceholder', params: expect.objectContaining({ name: 'summary' }) }),
    ]);
    expect(templateDetails('{{title}} {{link}}')).toEqual([]);
  });
});

describe('backoff', () => {
  it('doubles the interval per failure in a row, at most a day, never under Retry-After', () => {
    expect([1, 2, 3, 6, 7].map((failures) => backoffSeconds(900, failures))).toEqual([1800, 3600, 7200, 57_600, 86_400]);
    expect(backoffSeconds(900, 1, 7200)).toBe(7200);
    expect(backoffSeconds(900, 1, 60)).toBe(1800);
  });
});

// The composer's preview of a caption (web/src/composer/preview.ts): its length and where it is cut are the API's
// count (src/posts/captionLength.ts) for every way networks count, and links, mentions and hashtags are told apart.
import { describe, expect, it } from 'vitest';
import { previewCaption } from '../../src/posts/captionPreview.ts';
import { captionLength } from '../../src/posts/captionLength.ts';
import { networkNamed } from '../../src/providers/networks.ts';

const rulesOf = (provider: string) => networkNamed(provider)!.rules.placements[0]!.caption;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const shownText = (caption: string, provider: string) =>
  previewCaption(caption, rulesOf(provider))
    .shown.map((piece) => piece.text)
    .join('');

describe('the composer’s caption preview', () => {
  it('counts and cuts X’s weighted count as X does: emoji and CJK weigh 2', () => {
    const emoji = '👩‍👩‍👧'.repeat(141);
    const preview = previewCaption(emoji, rulesOf('x'));
    expect(preview.length).toBe(282);
    expect(preview.overflow).toBe('👩‍👩‍👧');
    expect(shownText(emoji, 'x')).toBe('👩‍👩‍👧'.repeat(140));

    const cjk = `${'日'.repeat(139)}本語`;
    expect(previewCaption(cjk, rulesOf('x'))).toMatchObject({ length: 282, overflow: '語' });
  });

  it('agrees with the API’s count wherever it cuts, for every network', () => {
    const caption = `Spring 🌷 is here https://example.com/${'a'.repeat(40)} 日本 @alice #sale `.repeat(40);
    for (const provider of ['x', 'bluesky', 'mastodon', 'threads', 'instagram']) {
      const rules = rulesOf(provider);
      const preview = previewCaption(caption, rules);
      expect(preview.length).toBe(captionLength(caption, rules));
      const kept = caption.slice(0, caption.length - preview.overflow.length);
      expect(captionLength(kept, rules), provider).toBeLessThanOrEqual(rules.maxLength);
      // The next piece (a whole link, or one character) would not have fitted: the cut is at the limit, not before it.
      const next = preview.overflow.match(/^https?:\/\/\S+/)?.[0] ?? [...graphemes.segment(preview.overflow)][0]!.segment;
      expect(captionLength(kept + next, rules), provider).toBeGreaterThan(rules.maxLength);
    }
  });

  it('keeps a link whole: a link that crosses the limit goes beyond it entire', () => {
    const link = 'https://example.com/spring';
    const preview = previewCaption(`${'a'.repeat(490)} ${link}`, rulesOf('threads'));
    expect(preview.overflow).toBe(link);
  });

  it('shows links as the network shortens them, and marks mentions and hashtags', () => {
    const preview = previewCaption(
      'Hi @alice@example.social and @bob.bsky.social, see https://example.com/a/rather/long/path #Spring2026 #2026 mail me@example.com',
      rulesOf('mastodon'),
    );
    expect(preview.shown.filter((piece) => piece.kind !== 'text').map((piece) => [piece.kind, piece.text])).toEqual([
      ['mention', '@alice@example.social'],
      ['mention', '@bob.bsky.social'],
      ['link', 'example.com/a/rather/l…'],
      ['hashtag', '#Spring2026'],
    ]);
    expect(preview.shown.find((piece) => piece.kind === 'link')!.href).toBe('https://example.com/a/rather/long/path');
  });
});

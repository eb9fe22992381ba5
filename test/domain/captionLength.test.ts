// How each network counts a caption: code points or graphemes, and links at a fixed length where the network
// shortens them (X's t.co, Mastodon's characters_reserved_per_url).
import { describe, expect, it } from 'vitest';
import { checkTarget } from '../../src/posts/validation.ts';

const check = (provider: string, caption: string, accountRules?: unknown) =>
  checkTarget({ provider, accountStatus: 'ACTIVE', accountRules, placement: 'feed', caption, media: [] }).filter((v) => v.rule === 'caption.maxLength');

describe('caption length', () => {
  const longUrl = `https://example.com/${'a'.repeat(200)}`;

  it('counts every link as 23 characters on X, however long it is', () => {
    expect(check('x', `${'x'.repeat(256)} ${longUrl}`)).toEqual([]);
    const over = check('x', `${'x'.repeat(257)} ${longUrl}`);
    expect(over[0]?.params).toMatchObject({ length: 281, limit: 280 });
  });

  it('counts links as written where the network does not shorten them', () => {
    expect(check('threads', `${'t'.repeat(290)} ${longUrl}`)[0]?.params).toMatchObject({ length: 291 + longUrl.length, limit: 500 });
  });

  it('uses the instance’s own limits and link length for a Mastodon account', () => {
    const instance = {
      placements: [
        {
          name: 'feed',
          description: '',
          caption: { maxLength: 100, countedIn: 'characters', required: false, maxHashtags: null, maxLinks: null, charactersPerUrl: 10 },
          media: { min: 0, max: 4, kinds: ['image'], maxVideos: 1, mixedKinds: false },
          aspectRatio: null,
          video: null,
        },
      ],
    };
    expect(check('mastodon', `${'m'.repeat(89)} ${longUrl}`, instance)).toEqual([]);
    expect(check('mastodon', `${'m'.repeat(90)} ${longUrl}`, instance)[0]?.params).toMatchObject({ length: 101, limit: 100 });
  });

  it('counts graphemes on Bluesky: a family emoji is one', () => {
    expect(check('bluesky', '👨‍👩‍👧‍👦'.repeat(300))).toEqual([]);
    expect(check('bluesky', '👨‍👩‍👧‍👦'.repeat(301))[0]?.params).toMatchObject({ length: 301, limit: 300 });
  });
});

// A caption's links as published (src/links/caption.ts): UTM parameters through the WHATWG URL API, the links found
// by linkify-it, short links in their place.
import { describe, expect, it } from 'vitest';
import { linkCaption, withUtm } from '../../src/links/caption.ts';

const utm = { source: 'news', medium: 'social' };

describe('UTM parameters', () => {
  it('go before a fragment, after the parameters a link has, and not where the link has its own', () => {
    expect(withUtm('https://example.com/a?b=1#top', utm)).toBe('https://example.com/a?b=1&utm_source=news&utm_medium=social#top');
    expect(withUtm('https://example.com/a?utm_source=mine', utm)).toBe('https://example.com/a?utm_source=mine&utm_medium=social');
    expect(withUtm('https://example.com', { campaign: 'spring sale' })).toBe('https://example.com/?utm_campaign=spring+sale');
  });

  it('leave a link untouched, byte for byte, when it already has every one', () => {
    const link = 'https://EXAMPLE.com/a?utm_source=x&utm_medium=y';
    expect(withUtm(link, utm)).toBe(link);
  });
});

describe('links in a caption', () => {
  it('are http(s) links only, without the punctuation around them', () => {
    const caption = 'See (https://example.com/a), "https://example.org/b". Mail me@example.com or ftp://example.net/c; example.com too';
    const linked = linkCaption(caption, { shorten: false, utm: { source: 's' } }, () => '');
    expect(linked.caption).toBe(
      'See (https://example.com/a?utm_source=s), "https://example.org/b?utm_source=s". Mail me@example.com or ftp://example.net/c; example.com too',
    );
    expect(linked.destinations).toEqual(['https://example.com/a?utm_source=s', 'https://example.org/b?utm_source=s']);
  });

  it('become their short links, one per destination however often it appears', () => {
    const linked = linkCaption('a https://example.com/x b https://example.com/x c https://example.com/y', { shorten: true, utm: {} }, (destination) =>
      destination.endsWith('x') ? 'S1' : 'S2',
    );
    expect(linked).toEqual({ caption: 'a S1 b S1 c S2', destinations: ['https://example.com/x', 'https://example.com/y'] });
  });

  it('stay as written when the setting changes nothing', () => {
    expect(linkCaption('x https://example.com/a', { shorten: false, utm: {} }, () => 'never').caption).toBe('x https://example.com/a');
  });
});

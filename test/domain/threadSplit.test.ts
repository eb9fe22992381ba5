// The thread splitter of AI captions (format: "thread"): every part within the network's limit as the network
// counts it, nothing lost or added, links, mentions and hashtags never cut, sentences preferred to words.
import { describe, expect, it } from 'vitest';
import { splitThread } from '../../src/ai/threadSplit.ts';
import { captionLength } from '../../src/posts/captionLength.ts';
import type { CaptionRules } from '../../src/providers/rules.ts';

const words = (text: string) => text.split(/\s+/).filter(Boolean);
const characters = (text: string) => [...text].length;

describe('splitThread', () => {
  it('leaves a text that fits as one part', () => {
    expect(splitThread('Open on Sunday.', 300, characters)).toEqual(['Open on Sunday.']);
  });

  it('cuts after sentences where that keeps a part at least half full, else between words', () => {
    const text = 'We bake every morning at five. The ovens take an hour to heat. Then the first loaves go in and the shop smells of bread.';
    const parts = splitThread(text, 70, characters);
    expect(parts).toEqual(['We bake every morning at five. The ovens take an hour to heat.', 'Then the first loaves go in and the shop smells of bread.']);
    // A sentence ending too early (under half the limit) is not where the cut goes.
    expect(splitThread('Hi. This sentence runs on past the limit of the part without a stop', 40, characters)).toEqual([
      'Hi. This sentence runs on past the limit',
      'of the part without a stop',
    ]);
  });

  it('never cuts inside a link, a mention or a hashtag, and keeps every word in order', () => {
    const link = 'https://moreau.example/menu/autumn-2026?ref=thread';
    const text = `Our autumn menu is here with seasonal bread from @moreau.bakery and friends ${link} #autumnbread #sourdough and more to come soon`;
    for (const limit of [40, 55, 60, 80]) {
      const parts = splitThread(text, limit, characters);
      for (const part of parts) expect(characters(part) <= limit || part === link).toBe(true);
      expect(parts.flatMap(words)).toEqual(words(text));
      expect(parts.some((part) => words(part).includes(link))).toBe(true);
      expect(parts.some((part) => words(part).includes('@moreau.bakery'))).toBe(true);
    }
  });

  it('keeps a link longer than a part whole, in a part of its own, and cuts only other over-long words', () => {
    const link = `https://example.com/${'a'.repeat(40)}`;
    expect(splitThread(`See ${link} now`, 20, characters)).toEqual(['See', link, 'now']);
    expect(splitThread('Supercalifragilisticexpialidocious', 10, characters)).toEqual(['Supercalif', 'ragilistic', 'expialidoc', 'ious']);
  });

  it("counts as the network counts: X's links are 23 characters whatever their length", () => {
    const x: CaptionRules = { maxLength: 280, countedIn: 'weighted', required: false, maxHashtags: null, maxLinks: null, charactersPerUrl: 23 };
    const link = `https://example.com/${'long-path/'.repeat(30)}`;
    const text = `${'Word '.repeat(40)}${link} ${'more '.repeat(40)}`.trim();
    const parts = splitThread(text, 280, (part) => captionLength(part, x));
    expect(parts.length).toBe(2);
    for (const part of parts) expect(captionLength(part, x)).toBeLessThanOrEqual(280);
    expect(parts.flatMap(words)).toEqual(words(text));
  });
});

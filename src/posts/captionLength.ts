// A caption's length as a network counts it (GET /providers `caption`): code points or graphemes, and each link at a
// fixed length where the network shortens links (X's t.co, Mastodon), or X's weighted count, by X's own library
// (twitter-text: links 23, CJK and emoji 2, most other characters 1). The API's rule check and the dashboard's
// counter and preview both count with this module, so they cannot disagree.
import twitterText from 'twitter-text';
import type { CaptionRules } from '../providers/rules.ts';
import { linkPattern } from '../text/links.ts';

export type CaptionCounting = Pick<CaptionRules, 'countedIn' | 'charactersPerUrl'>;

/** The longest caption a post may have: shorter with media where the network says so (a Telegram caption). GraphQL's absent limit is null. */
export function captionLimit(caption: { maxLength: number; maxLengthWithMedia?: number | null }, withMedia: boolean): number {
  return withMedia && typeof caption.maxLengthWithMedia === 'number' ? caption.maxLengthWithMedia : caption.maxLength;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The text's units: code points ("characters", and the pieces of a weighted count) or user-perceived characters ("graphemes"). */
export function unitsOf(text: string, countedIn: CaptionCounting['countedIn']): string[] {
  return countedIn === 'graphemes' ? Array.from(graphemes.segment(text), (piece) => piece.segment) : [...text];
}

export function captionLength(text: string, rules: CaptionCounting): number {
  if (rules.countedIn === 'weighted') return twitterText.parseTweet(text).weightedLength;
  let links = 0;
  const counted =
    rules.charactersPerUrl === null
      ? text
      : text.replace(linkPattern, () => {
          links++;
          return '';
        });
  return unitsOf(counted, rules.countedIn).length + links * (rules.charactersPerUrl ?? 0);
}

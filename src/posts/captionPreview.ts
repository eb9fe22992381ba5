// The caption as a network would show it: cut where the network's limit ends, as the network counts
// (src/posts/captionLength.ts, the module the API's rule check counts with, so preview and API cannot disagree),
// links shortened where the network shortens them, links, mentions and hashtags told apart from the text.
import { captionLength, unitsOf, type CaptionCounting } from './captionLength.ts';
import { linkPattern } from '../text/links.ts';

export type PieceKind = 'text' | 'link' | 'mention' | 'hashtag';

export interface PreviewPiece {
  kind: PieceKind;
  /** As the network shows it (a link shortened where the network shortens links). */
  text: string;
  /** A link's address. */
  href?: string;
  /** Tells the piece from the caption's others and stays while the text around it changes. */
  key: string;
}
export interface CaptionPreview {
  /** What fits the limit. */
  shown: PreviewPiece[];
  /** What goes beyond the limit, as written. */
  overflow: string;
  /** The caption's length as the network counts it. */
  length: number;
}

/** `@alice`, `@alice@example.social` (Mastodon), `@alice.bsky.social` (Bluesky); not the `@` of an email address. */
const mention = String.raw`(?<![\p{L}\p{N}_])@[\p{L}\p{N}_]+(?:[.@-][\p{L}\p{N}_]+)*`;
/** `#spring2026`, not `#2026` (networks tag only words with a letter) nor an anchor inside a word. */
const hashtag = String.raw`(?<![\p{L}\p{N}_&])#(?=[\p{N}_]*\p{L})[\p{L}\p{N}_]+`;
const entityPattern = new RegExp(`(${linkPattern.source})|(${mention})|(${hashtag})`, 'giu');

/** A link as networks that shorten links show it: without the scheme, cut to the length they count it as. */
function shortened(url: string, length: number): string {
  const bare = url.replace(/^https?:\/\//i, '');
  return bare.length < length ? bare : `${bare.slice(0, length - 1)}…`;
}

/**
 * The caption in the pieces a limit can cut it at: each link whole, the rest by the unit the network counts
 * (graphemes for X's weighted count, where an emoji sequence weighs as one).
 */
function cuttablePieces(caption: string, countedIn: CaptionCounting['countedIn']): string[] {
  const unit = countedIn === 'characters' ? 'characters' : 'graphemes';
  const pieces: string[] = [];
  let from = 0;
  for (const match of caption.matchAll(linkPattern)) {
    pieces.push(...unitsOf(caption.slice(from, match.index), unit), match[0]);
    from = match.index + match[0].length;
  }
  pieces.push(...unitsOf(caption.slice(from), unit));
  return pieces;
}

/** How many of `pieces` fit `maxLength` as the network counts: the longest prefix within it (found by halving). */
function fittingCount(pieces: readonly string[], rules: CaptionCounting & { maxLength: number }): number {
  let fits = 0;
  let beyond = pieces.length + 1;
  while (beyond - fits > 1) {
    const middle = Math.floor((fits + beyond) / 2);
    if (captionLength(pieces.slice(0, middle).join(''), rules) <= rules.maxLength) fits = middle;
    else beyond = middle;
  }
  return fits;
}

/** `text` as links, mentions, hashtags and the plain text between them. */
function entitiesOf(text: string, charactersPerUrl: number | null): PreviewPiece[] {
  const pieces: PreviewPiece[] = [];
  const seen = new Map<string, number>();
  const push = (kind: PieceKind, written: string, shown: string, href?: string) => {
    const id = `${kind} ${written}`;
    const occurrence = seen.get(id) ?? 0;
    seen.set(id, occurrence + 1);
    pieces.push({ kind, text: shown, key: `${occurrence} ${id}`, ...(href ? { href } : {}) });
  };
  let from = 0;
  for (const match of text.matchAll(entityPattern)) {
    if (match.index > from) push('text', text.slice(from, match.index), text.slice(from, match.index));
    const [written, link, atName] = match;
    if (link) push('link', link, charactersPerUrl === null ? link : shortened(link, charactersPerUrl), link);
    else push(atName ? 'mention' : 'hashtag', written, written);
    from = match.index + written.length;
  }
  if (from < text.length) push('text', text.slice(from), text.slice(from));
  return pieces;
}

export function previewCaption(caption: string, rules: CaptionCounting & { maxLength: number }): CaptionPreview {
  const length = captionLength(caption, rules);
  const pieces = cuttablePieces(caption, rules.countedIn);
  const fits = length <= rules.maxLength ? pieces.length : fittingCount(pieces, rules);
  return {
    shown: entitiesOf(pieces.slice(0, fits).join(''), rules.charactersPerUrl),
    overflow: pieces.slice(fits).join(''),
    length,
  };
}

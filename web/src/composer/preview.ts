// The caption as a network would show it: counted the way the network counts (src/posts/captionLength.ts), links
// shortened where the network shortens them, and cut where the network's limit ends.
import { linkPattern, unitsOf, type CaptionCounting } from '../../../src/posts/captionLength.ts';

export interface PreviewPiece {
  text: string;
  /** A link: its address, and a key that tells it from the caption's other links and stays while the text around it changes. */
  link?: { href: string; key: string };
}
export interface CaptionPreview {
  /** What fits the limit, links as the network shows them. */
  shown: PreviewPiece[];
  /** What goes beyond the limit, as written. */
  overflow: string;
  length: number;
}

/** A link as networks that shorten links show it: without the scheme, cut to the length they count it as. */
function shortened(url: string, length: number): string {
  const bare = url.replace(/^https?:\/\//i, '');
  return bare.length < length ? bare : `${bare.slice(0, length - 1)}…`;
}

export function previewCaption(caption: string, rules: CaptionCounting & { maxLength: number }): CaptionPreview {
  const pieces: { text: string; length: number; href?: string }[] = [];
  let from = 0;
  for (const match of caption.matchAll(linkPattern)) {
    pieces.push(...unitsOf(caption.slice(from, match.index), rules.countedIn).map((unit) => ({ text: unit, length: 1 })));
    const url = match[0];
    pieces.push(
      rules.charactersPerUrl === null
        ? { text: url, length: unitsOf(url, rules.countedIn).length, href: url }
        : { text: shortened(url, rules.charactersPerUrl), length: rules.charactersPerUrl, href: url },
    );
    from = match.index + url.length;
  }
  pieces.push(...unitsOf(caption.slice(from), rules.countedIn).map((unit) => ({ text: unit, length: 1 })));

  const shown: PreviewPiece[] = [];
  const linksShown = new Map<string, number>();
  let length = 0;
  let overflow = '';
  for (const piece of pieces) {
    length += piece.length;
    if (length > rules.maxLength) overflow += piece.href ?? piece.text;
    else if (piece.href) {
      const occurrence = linksShown.get(piece.href) ?? 0;
      linksShown.set(piece.href, occurrence + 1);
      shown.push({ text: piece.text, link: { href: piece.href, key: `${occurrence} ${piece.href}` } });
    } else if (shown.at(-1) && !shown.at(-1)!.link) shown.at(-1)!.text += piece.text;
    else shown.push({ text: piece.text });
  }
  return { shown, overflow, length };
}

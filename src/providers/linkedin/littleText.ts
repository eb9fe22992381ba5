// A caption as LinkedIn's "little" text format takes it
// (https://learn.microsoft.com/linkedin/marketing/community-management/shares/little-text-format): its reserved
// characters | { } @ [ ] ( ) < > # \ * _ ~ are escaped with a backslash, or LinkedIn reads them as mentions and
// templates (and cuts the text at the first it cannot read). A hashtag (# before a letter or digit, at the start
// or after a space) stays one, as the person wrote it.
const reserved = /[|{}@[\]()<>#\\*_~]/g;

export function littleText(caption: string): string {
  return caption.replace(reserved, (character, offset: number) => {
    const hashtag = character === '#' && (offset === 0 || /\s/u.test(caption[offset - 1]!)) && /^[\p{L}\p{N}]/u.test(caption.slice(offset + 1));
    return hashtag ? character : `\\${character}`;
  });
}

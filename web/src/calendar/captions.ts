// A post named by its caption's start, where a list has no room for the whole caption.

/** The caption's first `length` characters (whole code points), its lines joined, with "…" where it was cut. */
export function captionStart(caption: string, length: number): string {
  const characters = [...caption.replace(/\s+/g, ' ').trim()];
  return characters.length > length ? `${characters.slice(0, length).join('').trimEnd()}…` : characters.join('');
}

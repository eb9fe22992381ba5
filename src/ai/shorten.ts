/** The text cut to at most `max` characters (code points), at a word boundary where there is one, with an ellipsis. */
export function shorten(text: string, max: number): string {
  const characters = [...text];
  if (characters.length <= max) return text;
  const head = characters.slice(0, max - 1).join('');
  const boundary = head.search(/\s\S*$/);
  return `${(boundary > 0 ? head.slice(0, boundary) : head).trimEnd()}…`;
}

// A network's words as people may see them (an error's reason in an API answer, a webhook, a redirect's
// `error_description`): a network answers whatever it likes (an HTML error page, an internal service's answer,
// control characters, megabytes), so only a short line of plain, printable text is ever passed on.
const maxCharacters = 300;

export function shownReason(text: string): string {
  const plain = text
    .replace(/<[^>]*>?/g, ' ')
    // Control, format, private-use and unassigned characters, and angle brackets left from broken markup.
    .replace(/[\p{C}<>]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const characters = [...plain];
  return characters.length > maxCharacters ? `${characters.slice(0, maxCharacters - 1).join('')}…` : plain;
}

// Text set into the HTML of the pages the service renders itself (startLinkPage.ts, reviewPage.ts).
const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => entities[character]!);

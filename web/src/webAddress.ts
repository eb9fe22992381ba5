// Addresses the dashboard opens or links to that a network named (an authorization page, a published item's
// permalink): the service checks them, and the dashboard follows only http(s) ones all the same, so a
// `javascript:` address can never run in it.
export function webAddress(raw: string | null | undefined): string | null {
  if (!raw || !URL.canParse(raw)) return null;
  const url = new URL(raw);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
}

// The page an OAuth start link started with an API key answers first (GET /oauth/start/{provider}): it names the
// network, the workspace and the person who asked, in the visitor's language, and goes on to the network only when
// they press Continue, a POST form carrying a one-time confirmation that only this page's browser holds (a cookie of
// its own, SameSite=Strict): opening the link, or another site posting to it, goes nowhere. It holds no secret but
// that confirmation; its address (the state) is what the visitor was given.
import type { AuthorizationRequest } from '../src/accounts/connect.ts';
import { renderMessage, type Language } from '../src/errors/messages.ts';
import { escapeHtml } from './html.ts';

export function startLinkPage(request: AuthorizationRequest, confirmation: string, language: Language): string {
  const text = (key: Parameters<typeof renderMessage>[1]) =>
    escapeHtml(renderMessage(language, key, { network: request.network, workspace: request.workspace, requester: request.requester }));
  return `<!doctype html>
<html lang="${language}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${text('startLink.title')}</title></head>
<body>
<main>
<h1>${text('startLink.title')}</h1>
<p>${text('startLink.request')}</p>
<p>${text('startLink.onlyIf')}</p>
<form method="post">
<input type="hidden" name="confirmation" value="${escapeHtml(confirmation)}">
<button type="submit">${text('startLink.continue')}</button>
</form>
</main>
</body>
</html>
`;
}

// Token endpoint answers as networks really give them, made readable for the OAuth client (oauth4webapi), which
// holds them to RFC 6749 5.1/5.2 and OpenID Connect to the letter:
//   no `token_type`   LinkedIn's refresh answer ("Refresh Tokens with OAuth 2.0", learn.microsoft.com; linkedin-api-client's
//                     `RefreshTokenExchangeResponse`) and at times its code exchange (panva/openid-client#826), Threads'
//                     code exchange. Every network here issues bearer tokens (RFC 6750): the answer is completed.
//   an `id_token`     LinkedIn's code exchange of an `openid` grant, signed by https://www.linkedin.com/oauth (its
//                     OIDC discovery document), which the client would check against an issuer it does not know.
//                     The service never signs people in with it (each network's API says whose the tokens are:
//                     LinkedIn's /v2/userinfo) and sends no nonce: it is left out.
//   an error in 200   TikTok may refuse a refresh with HTTP 200 and `{error, error_description, log_id}` ("Manage User
//                     Access Tokens", developers.tiktok.com): answered as the RFC 6749 5.2 error it is, 400 (503
//                     for `server_error` and `temporarily_unavailable`, which say the network is in trouble).
//   `data: [{…}]`     Instagram Login's code exchange as its reference shows it ("Business Login for Instagram",
//                     developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/business-login:
//                     `{data: [{access_token, user_id, permissions}]}`), where production answers are flat (Postiz
//                     `instagram.standalone.provider.ts` reads `access_token` and `permissions` at the top): the one
//                     entry is the answer.
//   `permissions`     the same answer names what was granted as `permissions` (a comma list, or an array: Postiz's
//                     `checkScopes` takes both), not `scope`: it becomes the `scope`.
// Everything else passes as the network sent it.

const troubled = new Set(['server_error', 'temporarily_unavailable']);

/** `send` with its token endpoint answers made readable (see above). */
export function readableTokenAnswers(send: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await send(input, init);
    if (response.status < 200 || response.status >= 300 || !/\bjson\b/i.test(response.headers.get('content-type') ?? '')) return response;
    const text = await response.text();
    const answer = unwrapped(parsedObject(text));
    if (!answer) return new Response(text, { status: response.status, headers: response.headers });
    if (typeof answer.error === 'string' && answer.access_token === undefined) {
      return Response.json(answer, { status: troubled.has(answer.error) ? 503 : 400, headers: { 'cache-control': 'no-store' } });
    }
    const kept = Object.fromEntries(Object.entries(answer).filter(([name]) => name !== 'id_token' && name !== 'permissions'));
    const permissions = Array.isArray(answer.permissions) ? answer.permissions.join(',') : answer.permissions;
    const scope = answer.scope === undefined && typeof permissions === 'string' ? { scope: permissions } : {};
    return Response.json({ token_type: 'bearer', ...kept, ...scope }, { status: response.status, headers: { 'cache-control': 'no-store' } });
  };
}

/** An answer whose one `data` entry holds the token (and nothing else does) is that entry. */
function unwrapped(answer: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const entry = Array.isArray(answer?.data) && answer.access_token === undefined ? (answer.data[0] as unknown) : undefined;
  return typeof entry === 'object' && entry !== null && 'access_token' in entry ? (entry as Record<string, unknown>) : answer;
}

function parsedObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

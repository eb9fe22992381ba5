// An account of an OAuth network connected as a person connects it: POST /v1/social-accounts/connect, the start link
// in their browser (OAuthBrowser), the network's authorization (a stand-in that authorizes whoever it signs in), and
// the callback. Answers the new account's id.
import type { Api } from './posts.ts';
import { OAuthBrowser } from './oauthBrowser.ts';

export async function connectByOAuth(service: { url: string }, publicBaseUrl: string, api: Api, provider: string): Promise<string> {
  const started = await api('POST', '/social-accounts/connect', { provider });
  if (started.status !== 201) throw new Error(`connecting ${provider} answered ${started.status}: ${JSON.stringify(started.body)}`);
  const person = new OAuthBrowser(service.url, publicBaseUrl);
  const authorization = await person.start(started.body.data.authorizationUrl);
  const back = await person.callback((await fetch(authorization, { redirect: 'manual' })).headers.get('location')!);
  const connectionId = back.location?.searchParams.get('connectionId');
  if (!connectionId) throw new Error(`connecting ${provider} ended at ${back.location?.href}`);
  return connectionId;
}

// An account of an OAuth network connected as a person connects it: POST /v1/social-accounts/connect, the start link
// in their browser (OAuthBrowser), the network's authorization (a stand-in that authorizes whoever it signs in), and
// the callback. Answers the new account's id, or why the service refused to connect it.
import type { Api } from './posts.ts';
import { OAuthBrowser } from './oauthBrowser.ts';

/** More of the connect body: the way of connecting (`method`) where the network offers several. */
type ConnectOptions = Record<string, unknown>;

/** Runs the connect flow for `provider` as a person would, to the service's answer at the callback. */
async function connectFlow(service: { url: string }, publicBaseUrl: string, api: Api, provider: string, options: ConnectOptions): Promise<URL | null> {
  const started = await api('POST', '/social-accounts/connect', { provider, ...options });
  if (started.status !== 201) throw new Error(`connecting ${provider} answered ${started.status}: ${JSON.stringify(started.body)}`);
  const person = new OAuthBrowser(service.url, publicBaseUrl);
  const authorization = await person.start(started.body.data.authorizationUrl);
  return (await person.callback((await fetch(authorization, { redirect: 'manual' })).headers.get('location')!)).location;
}

export async function connectByOAuth(
  service: { url: string },
  publicBaseUrl: string,
  api: Api,
  provider: string,
  options: ConnectOptions = {},
): Promise<string> {
  const back = await connectFlow(service, publicBaseUrl, api, provider, options);
  const connectionId = back?.searchParams.get('connectionId');
  if (!connectionId) throw new Error(`connecting ${provider} ended at ${back?.href}`);
  return connectionId;
}

/** Why the service refused to connect (the callback's `error_description`); null where it connected. */
export async function connectRefusal(
  service: { url: string },
  publicBaseUrl: string,
  api: Api,
  provider: string,
  options: ConnectOptions = {},
): Promise<string | null> {
  return (await connectFlow(service, publicBaseUrl, api, provider, options))?.searchParams.get('error_description') ?? null;
}

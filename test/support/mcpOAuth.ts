// The MCP SDK's own client auth (client/auth.js) against the running service, as Claude's or the Inspector's client
// does it: an OAuthClientProvider keeping what the SDK asks it to keep, whose "browser" is the test: it follows the
// authorization URL to the consent page and decides there through the same calls the dashboard makes.
import { createServer } from 'node:net';
import { startTestService, type TestService } from './service.ts';
import { connectSandbox, createWorkspace, type TestWorkspace } from './fixtures.ts';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** A port free now, for a service whose PUBLIC_BASE_URL must name it before it listens. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export const ownerPassword = 'a long enough password';

/**
 * The service under the address clients use (OAuth's issuer and resource are PUBLIC_BASE_URL), with a workspace
 * whose owner has a password and a sandbox account.
 */
export async function startOAuthService(): Promise<{ service: TestService; base: string; workspace: TestWorkspace; email: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const service = await startTestService({ PORT: String(port), PUBLIC_BASE_URL: base });
  const workspace = await createWorkspace(service.services, { password: ownerPassword });
  await connectSandbox(service.services, workspace.workspaceId);
  const { email } = await service.services.db.prisma.user.findUniqueOrThrow({ where: { id: workspace.ownerId } });
  return { service, base, workspace, email };
}

/** The status /mcp answers a tools/list with this bearer token. */
export async function mcpStatus(base: string, token: string): Promise<number> {
  const response = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  return response.status;
}

/** What a client keeps between runs: its registration, its tokens, the PKCE verifier of the sign-in under way. */
export class RecordingClientProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  /** Where the SDK sent the person's browser to sign in. */
  authorizationUrl: URL | undefined;

  constructor(
    readonly redirectUrl = 'http://127.0.0.1:33418/callback',
    readonly name = 'Claude (test)',
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(client: OAuthClientInformationMixed) {
    this.client = client;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

export function oauthTransport(baseUrl: string, provider: OAuthClientProvider): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { authProvider: provider });
}

export async function connectedClient(baseUrl: string, provider: OAuthClientProvider): Promise<Client> {
  const client = new Client({ name: 'sps-oauth-test', version: '1.0.0' });
  await client.connect(oauthTransport(baseUrl, provider));
  return client;
}

/** A person in the dashboard: signed in with a session cookie, in one workspace. */
export interface Person {
  cookie: string;
  workspaceId: string;
}

export async function signIn(baseUrl: string, email: string, password: string, workspaceId: string): Promise<Person> {
  const response = await fetch(`${baseUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 204) throw new Error(`sign-in answered ${response.status}`);
  return { cookie: response.headers.get('set-cookie')!.split(';')[0]!, workspaceId };
}

export async function graph(baseUrl: string, person: Person, query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: person.cookie, 'x-workspace-id': person.workspaceId },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: Record<string, any>; errors?: { message: string; extensions: { code: string } }[] };
}

/** Opens the authorization URL as a browser would: /authorize answers a redirect to the dashboard's consent page. */
export async function openAuthorization(url: URL): Promise<{ status: number; location: URL | null }> {
  const response = await fetch(url, { redirect: 'manual' });
  const location = response.headers.get('location');
  return { status: response.status, location: location ? new URL(location, url) : null };
}

export const decideMutation = `mutation($id: ID!, $allow: Boolean!, $preset: ScopePreset, $scopes: [Scope!]) {
  decideAppAuthorization(id: $id, allow: $allow, preset: $preset, scopes: $scopes) { redirectTo } }`;

/** The consent page's decision: answers the client's redirect URI as the browser would be sent to it. */
export async function decide(
  baseUrl: string,
  person: Person,
  consentPage: URL,
  decision: { allow: boolean; preset?: 'PUBLISHING' | 'READ_ONLY'; scopes?: string[] },
): Promise<URL> {
  const id = consentPage.searchParams.get('request');
  const answer = await graph(baseUrl, person, decideMutation, { id, ...decision });
  if (answer.errors) throw new Error(JSON.stringify(answer.errors));
  return new URL(answer.data!.decideAppAuthorization.redirectTo);
}

// Connected apps: MCP clients (Claude's and ChatGPT's connectors, the MCP Inspector) that a person signed in with
// OAuth 2.1 (the MCP authorization specification): registered by dynamic client registration, allowed on the
// consent page for one workspace and a set of scopes, then holding short-lived access tokens and rotating refresh
// tokens. A connected app acts exactly as a key of that person would: its scopes capped by their current role, the
// plan's API access, their rate limit. Codes and tokens are stored as SHA-256 digests only.
//
// The transport (rest/mcpAuth.ts) speaks OAuth's wire format through the MCP SDK's handlers; refusals of the flow are
// OAuthRefusals carrying RFC 6749's error codes, which that layer answers as OAuth errors.
import type { Prisma } from '../db/generated/prisma/client.ts';
import type { Database } from '../db/database.ts';
import { notFound } from '../errors/appError.ts';
import { isUuid } from '../ids.ts';
import { requirePlan, requireScopes, type Actor } from './actor.ts';
import { resolveScopes } from './apiKeys.ts';
import { authorize } from './operations.ts';
import { isScope, type Scope, type ScopePreset } from './scopes.ts';
import { digestSecret, newSecret } from './secrets.ts';

/** RFC 6749 §5.2 / RFC 7591 §3.2.2 / RFC 8707 §2 error codes the flow answers. */
export type OAuthErrorCode = 'invalid_request' | 'invalid_grant' | 'invalid_target' | 'invalid_client_metadata' | 'invalid_scope';

export class OAuthRefusal extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
  ) {
    super(description);
    this.name = 'OAuthRefusal';
  }
}

export const appTokenLifetimes = {
  /** The consent page must be answered, and the code exchanged, within this (RFC 6749 §4.1.2 recommends 10 minutes at most). */
  authorizationSeconds: 600,
  /** Short-lived: a leaked access token is of use for an hour at most; the client refreshes it. */
  accessSeconds: 3600,
  /** Each refresh token is spent once and replaced; the family ends when a month passes without use. */
  refreshSeconds: 30 * 24 * 3600,
} as const;

/** Access tokens are told from API keys by their prefix: only /mcp takes them (they are issued for that resource). */
export const accessTokenPrefix = 'spsat';
const refreshTokenPrefix = 'spsrt';
const codePrefix = 'spsac';

export interface ClientRegistration {
  client_id: string;
  client_id_issued_at?: number;
  client_name?: string;
  redirect_uris: string[];
  [field: string]: unknown;
}

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/** RFC 8252 and the MCP specification: a redirect URI is https, or http to a loopback address (a native app's). */
export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri} is not a URL`;
  }
  if (url.hash) return `${uri} has a fragment`;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && loopbackHosts.has(url.hostname)) return null;
  return `${uri} is neither https nor http to a loopback address`;
}

/**
 * Stores a registration (RFC 7591). Every client is public (`token_endpoint_auth_method: none`): PKCE binds each code
 * to the client that asked for it, and no client secret exists to be kept or leaked (RFC 7591 §3.2.1 lets the server
 * replace a requested method with the one it registers).
 */
export async function registerAppClient(db: Database, registration: ClientRegistration): Promise<ClientRegistration> {
  const { client_secret: _secret, client_secret_expires_at: _expires, ...metadata } = registration;
  if (!metadata.redirect_uris.length) throw new OAuthRefusal('invalid_client_metadata', 'redirect_uris is required');
  const problems = metadata.redirect_uris.map(redirectUriProblem).filter((problem) => problem !== null);
  if (problems.length) throw new OAuthRefusal('invalid_client_metadata', `redirect_uris: ${problems.join('; ')}`);
  const grantTypes = (metadata.grant_types as string[] | undefined) ?? ['authorization_code', 'refresh_token'];
  if (grantTypes.some((grant) => grant !== 'authorization_code' && grant !== 'refresh_token')) {
    throw new OAuthRefusal('invalid_client_metadata', 'grant_types: only authorization_code and refresh_token');
  }
  const answered: ClientRegistration = { ...metadata, token_endpoint_auth_method: 'none', grant_types: grantTypes, response_types: ['code'] };
  await db.prisma.oAuthAppClient.create({
    data: {
      id: metadata.client_id,
      name: typeof metadata.client_name === 'string' ? metadata.client_name.slice(0, 200) : null,
      redirectUris: metadata.redirect_uris,
      metadata: answered as Prisma.InputJsonValue,
    },
  });
  return answered;
}

export async function findAppClient(db: Database, clientId: string): Promise<ClientRegistration | undefined> {
  if (!isUuid(clientId)) return undefined;
  const client = await db.prisma.oAuthAppClient.findUnique({ where: { id: clientId } });
  return client ? (client.metadata as ClientRegistration) : undefined;
}

/** The one resource tokens are issued for: this service's MCP endpoint (RFC 8707). */
function checkResource(requested: string | undefined, resource: string): string {
  if (requested !== undefined && requested.replace(/\/$/, '') !== resource) {
    throw new OAuthRefusal('invalid_target', `resource must be ${resource}`);
  }
  return resource;
}

/** Scopes named in a request, ours only (an unknown one is refused, as RFC 6749 §3.3 allows). */
function requestedScopes(scopes: readonly string[]): Scope[] {
  const unknown = scopes.filter((scope) => scope && !isScope(scope));
  if (unknown.length) throw new OAuthRefusal('invalid_scope', `unknown scopes: ${unknown.join(' ')}`);
  return [...new Set(scopes.filter(isScope))];
}

/** /authorize, its parameters checked: a request awaiting the person's decision on the consent page. */
export async function startAppAuthorization(
  db: Database,
  input: { clientId: string; redirectUri: string; codeChallenge: string; state?: string; scopes: readonly string[]; resource?: string; mcpResource: string },
): Promise<{ requestId: string }> {
  const request = await db.prisma.oAuthAppRequest.create({
    data: {
      clientId: input.clientId,
      redirectUri: input.redirectUri,
      codeChallenge: input.codeChallenge,
      state: input.state ?? null,
      scopes: requestedScopes(input.scopes),
      resource: checkResource(input.resource, input.mcpResource),
      expiresAt: new Date(Date.now() + appTokenLifetimes.authorizationSeconds * 1000),
    },
  });
  return { requestId: request.id };
}

export interface AppAuthorizationView {
  id: string;
  clientName: string | null;
  /** Where the person is sent back to: the host they should recognize. */
  redirectHost: string;
  requestedScopes: Scope[];
  expiresAt: Date;
}

async function pendingRequest(db: Database, requestId: string) {
  const request = isUuid(requestId)
    ? await db.prisma.oAuthAppRequest.findFirst({ where: { id: requestId, decidedAt: null, expiresAt: { gt: new Date() } }, include: { client: true } })
    : null;
  if (!request) throw notFound('appAuthorization');
  return request;
}

/** What the consent page shows of a request; 404 once decided or expired. Any signed-in person may read it. */
export async function describeAppAuthorization(db: Database, requestId: string): Promise<AppAuthorizationView> {
  const request = await pendingRequest(db, requestId);
  return {
    id: request.id,
    clientName: request.client.name,
    redirectHost: new URL(request.redirectUri).host,
    requestedScopes: request.scopes.filter(isScope),
    expiresAt: request.expiresAt,
  };
}

function redirectWith(redirectUri: string, params: Record<string, string | null>, issuer: string): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  // RFC 9207: the issuer, so a client talking to several servers knows which answered.
  url.searchParams.set('iss', issuer);
  return url.href;
}

/**
 * The person's decision on the consent page, in the workspace they chose (the actor's). Allow: a connected app with
 * the preset or scopes chosen (never more than their role allows, on a plan with API access, as for a key), and the
 * redirect carrying a single-use code. Deny: the redirect carrying `access_denied` (RFC 6749 §4.1.2.1).
 */
export async function decideAppAuthorization(
  db: Database,
  actor: Actor,
  input: { requestId: string; allow: boolean; preset?: ScopePreset; scopes?: string[]; issuer: string },
): Promise<{ redirectTo: string }> {
  authorize(actor, 'connectApp');
  const request = await pendingRequest(db, input.requestId);
  if (!input.allow) {
    await db.prisma.oAuthAppRequest.update({ where: { id: request.id }, data: { decidedAt: new Date() } });
    return { redirectTo: redirectWith(request.redirectUri, { error: 'access_denied', state: request.state }, input.issuer) };
  }
  const scopes = resolveScopes(input);
  requireScopes(actor, scopes, 'connectApp');
  requirePlan(actor.plan, 'apiAccess');
  const code = newSecret(codePrefix);
  const decided = await db.prisma.$transaction(async (tx) => {
    const app = await tx.connectedApp.create({
      data: { clientId: request.clientId, workspaceId: actor.workspaceId, userId: actor.userId, scopes, resource: request.resource },
    });
    // Decided once: a second decision (another tab) finds nothing pending.
    return tx.oAuthAppRequest.updateMany({
      where: { id: request.id, decidedAt: null },
      data: {
        decidedAt: new Date(),
        appId: app.id,
        codeHash: digestSecret(code),
        expiresAt: new Date(Date.now() + appTokenLifetimes.authorizationSeconds * 1000),
      },
    });
  });
  if (decided.count === 0) throw notFound('appAuthorization');
  return { redirectTo: redirectWith(request.redirectUri, { code, state: request.state }, input.issuer) };
}

async function codeRequest(db: Database, clientId: string, code: string) {
  const request = await db.prisma.oAuthAppRequest.findUnique({ where: { codeHash: digestSecret(code) } });
  if (!request || request.clientId !== clientId || !request.appId) throw new OAuthRefusal('invalid_grant', 'unknown authorization code');
  return request;
}

/** The PKCE challenge of the code's request (the SDK's token handler checks the verifier against it, S256). */
export async function challengeForCode(db: Database, clientId: string, code: string): Promise<string> {
  return (await codeRequest(db, clientId, code)).codeChallenge;
}

export interface IssuedTokens {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

async function issueTokens(tx: Prisma.TransactionClient, app: { id: string; scopes: string[] }): Promise<IssuedTokens> {
  const access = newSecret(accessTokenPrefix);
  const refresh = newSecret(refreshTokenPrefix);
  const now = Date.now();
  await tx.connectedAppToken.createMany({
    data: [
      { appId: app.id, kind: 'access', hash: digestSecret(access), expiresAt: new Date(now + appTokenLifetimes.accessSeconds * 1000) },
      { appId: app.id, kind: 'refresh', hash: digestSecret(refresh), expiresAt: new Date(now + appTokenLifetimes.refreshSeconds * 1000) },
    ],
  });
  return { access_token: access, token_type: 'Bearer', expires_in: appTokenLifetimes.accessSeconds, refresh_token: refresh, scope: app.scopes.join(' ') };
}

/**
 * The code, once, for the client it was issued to, with the redirect URI and resource of its request. A code
 * presented twice revokes the app it created (RFC 6749 §4.1.2: its tokens may have been stolen).
 */
export async function exchangeCode(db: Database, input: { clientId: string; code: string; redirectUri?: string; resource?: string }): Promise<IssuedTokens> {
  const request = await codeRequest(db, input.clientId, input.code);
  if (input.redirectUri !== undefined && input.redirectUri !== request.redirectUri) throw new OAuthRefusal('invalid_grant', 'redirect_uri does not match');
  checkResource(input.resource, request.resource);
  const outcome = await db.prisma.$transaction(async (tx) => {
    const spent = await tx.oAuthAppRequest.updateMany({
      where: { id: request.id, exchangedAt: null, expiresAt: { gt: new Date() } },
      data: { exchangedAt: new Date() },
    });
    const app = await tx.connectedApp.findUniqueOrThrow({ where: { id: request.appId! } });
    if (spent.count === 0 || app.revokedAt) return null;
    return issueTokens(tx, app);
  });
  if (!outcome) {
    if (request.exchangedAt) await revokeApp(db, request.appId!, 'code_reused');
    throw new OAuthRefusal('invalid_grant', 'the authorization code was used or has expired');
  }
  return outcome;
}

/**
 * A refresh token, spent once: a new access token and a new refresh token of the same family. A spent refresh
 * token presented again means one of its holders is not the client: the whole family (the connected app) is
 * revoked (OAuth 2.1 §4.3.1, refresh token rotation with reuse detection).
 */
export async function exchangeRefreshToken(
  db: Database,
  input: { clientId: string; refreshToken: string; scopes?: string[]; resource?: string },
): Promise<IssuedTokens> {
  const token = await db.prisma.connectedAppToken.findUnique({ where: { hash: digestSecret(input.refreshToken) }, include: { app: true } });
  if (token?.kind !== 'refresh' || token.app.clientId !== input.clientId) throw new OAuthRefusal('invalid_grant', 'unknown refresh token');
  checkResource(input.resource, token.app.resource);
  if (input.scopes?.some((scope) => !token.app.scopes.includes(scope))) throw new OAuthRefusal('invalid_scope', 'more scopes than were granted');
  const outcome = await db.prisma.$transaction(async (tx) => {
    const spent = await tx.connectedAppToken.updateMany({ where: { id: token.id, usedAt: null }, data: { usedAt: new Date() } });
    if (spent.count === 0) return 'reused' as const;
    if (token.app.revokedAt || token.expiresAt <= new Date()) return null;
    return issueTokens(tx, token.app);
  });
  if (outcome === 'reused') {
    await revokeApp(db, token.appId, 'refresh_reused');
    throw new OAuthRefusal('invalid_grant', 'the refresh token was already used: the app is disconnected');
  }
  if (!outcome) throw new OAuthRefusal('invalid_grant', 'the refresh token has expired or the app is disconnected');
  return outcome;
}

/** RFC 7009: revoking any of a client's tokens disconnects its app; an unknown token is no error. */
export async function revokeAppToken(db: Database, clientId: string, token: string): Promise<void> {
  const found = await db.prisma.connectedAppToken.findUnique({ where: { hash: digestSecret(token) }, include: { app: true } });
  if (found && found.app.clientId === clientId) await revokeApp(db, found.appId, 'revoked_by_client');
}

async function revokeApp(db: Database, appId: string, reason: string): Promise<void> {
  await db.prisma.connectedApp.updateMany({ where: { id: appId, revokedAt: null }, data: { revokedAt: new Date(), revokedReason: reason } });
  db.accessChanged();
}

export interface ConnectedAppSummary {
  id: string;
  clientName: string | null;
  redirectHost: string;
  scopes: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** The caller's own connected apps in this workspace that still work, newest first. */
export async function listConnectedApps(db: Database, actor: Actor): Promise<ConnectedAppSummary[]> {
  authorize(actor, 'listConnectedApps');
  const apps = await db.prisma.connectedApp.findMany({
    where: { workspaceId: actor.workspaceId, userId: actor.userId, revokedAt: null },
    include: { client: true },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  return apps.map((app) => ({
    id: app.id,
    clientName: app.client.name,
    redirectHost: new URL(app.client.redirectUris[0]!).host,
    scopes: app.scopes,
    createdAt: app.createdAt,
    lastUsedAt: app.lastUsedAt,
  }));
}

/** Disconnects one of the caller's apps: its access and refresh tokens are refused from this moment, in every process. */
export async function disconnectApp(db: Database, actor: Actor, appId: string): Promise<ConnectedAppSummary[]> {
  authorize(actor, 'disconnectApp');
  const app = isUuid(appId)
    ? await db.prisma.connectedApp.findFirst({ where: { id: appId, workspaceId: actor.workspaceId, userId: actor.userId, revokedAt: null } })
    : null;
  if (!app) throw notFound('connectedApp');
  await revokeApp(db, app.id, 'disconnected');
  return listConnectedApps(db, actor);
}

/** Housekeeping: consent requests, codes and tokens past their expiry, none of them of use any more. */
export async function forgetExpiredAppGrants(db: Database): Promise<number> {
  const requests = await db.pool.query('DELETE FROM oauth_app_request WHERE expires_at < now()');
  const tokens = await db.pool.query('DELETE FROM connected_app_token WHERE expires_at < now()');
  return (requests.rowCount ?? 0) + (tokens.rowCount ?? 0);
}

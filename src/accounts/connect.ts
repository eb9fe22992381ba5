// Connecting social accounts, for every network through its connector: OAuth 2.0 (authorization URL, then the
// network's callback), credentials (Bluesky app passwords) and the local sandbox; and disconnecting them.
//
// An OAuth authorization is a single-use `state` (10 minutes) bound to the workspace and the person who started
// it, stored only as a hash, with the PKCE verifier sealed beside it. It is also bound to one browser: the caller
// gets a start link on the service (never the network's URL), which opens once, hands the browser that opened it a
// random binding (a cookie; stored only as a hash) and sends it on to the network. Who may open it depends on how
// it was started: one started in the dashboard opens only in the browser of that signed-in session; one started
// with an API key (meant to be handed to someone) first asks its visitor, naming the workspace and the person who
// asked, and goes on to the network only when they continue. The callback takes the state (deleting the row, so a
// second use finds nothing), refuses it without that browser's binding, exchanges the code, reads who the account
// is and saves it. Nothing is written on any failure but the used state and the outcome: how each authorization
// ended is kept a day for the person who started it (the dashboard shows it from there, never from its address).
import { createHash, randomBytes } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import type { Config } from '../config.ts';
import type { Database, Transaction } from '../db/database.ts';
import type { SecretBox } from '../crypto/secretBox.ts';
import type { Outbox } from '../events/outbox.ts';
import type { OAuthAuthorization, SocialAccount } from '../db/generated/prisma/client.ts';
import { requirePlan, type Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import { managerRoles, type Role } from '../access/scopes.ts';
import { AppError, invalidRequest, type MessageParams } from '../errors/appError.ts';
import type { MessageKey } from '../errors/messages.ts';
import { isUuid } from '../ids.ts';
import { ProviderError, type AuthorizationContext, type OAuthConnector, type ProviderTokens } from '../providers/adapter.ts';
import type { CredentialField } from '../providers/network.ts';
import { networkNamed } from '../providers/networks.ts';
import type { AccountLink, AccountLinks } from '../providers/registry.ts';
import { authorizationRequest, callbackUrl, exchangeCode, GrantRefused, type OAuthApp } from '../providers/oauth2.ts';
import { shownReason } from '../providers/shownReason.ts';
import { allowedHostsFrom, checkDestination, RefusedDestination, shownUrl } from '../outbound/guard.ts';
import { credentialDetails } from './credentials.ts';
import { appSettingsOf, requireProvider } from './providers.ts';
import { localRemoteId, markNeedsReconnect, openTokens, revokeSocialAccount, saveConnectedAccounts, type AccountToSave } from './socialAccounts.ts';

export const authorizationMinutes = 10;

export interface ConnectionSettings {
  links: AccountLinks;
  secrets: SecretBox;
  publicBaseUrl: string;
  /** Origins a person may be sent back to after authorizing: PUBLIC_BASE_URL's and REDIRECT_ALLOWED_ORIGINS. */
  returnOrigins: ReadonlySet<string>;
  /** NETWORK_ALLOWED_HOSTS: hosts a person's network URL may name even when private, and over http. */
  allowedHosts: ReadonlySet<string>;
  timeoutMs: number;
}

export function connectionSettings(config: Config, secrets: SecretBox, links: AccountLinks): ConnectionSettings {
  return {
    links,
    secrets,
    publicBaseUrl: config.publicBaseUrl,
    returnOrigins: new Set([new URL(config.publicBaseUrl).origin, ...config.redirectAllowedOrigins]),
    allowedHosts: allowedHostsFrom(config.networkAllowedHosts),
    timeoutMs: config.networkTimeoutMs,
  };
}

const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');
const displayName = (provider: string) => networkNamed(provider)?.displayName ?? provider;

/** The accounts as the network named them, without an avatar people could not safely load (`shownUrl`). */
function withShownAvatars<Account extends AccountToSave>(accounts: Account[], allowedHosts: ReadonlySet<string>): Account[] {
  return accounts.map((account) => ({ ...account, identity: { ...account.identity, avatarUrl: shownUrl(account.identity.avatarUrl, allowedHosts) } }));
}

/** The accounts with the network's own limits for each, where it gives them per account (a Mastodon instance). */
async function withAccountRules(link: AccountLink, accounts: AccountToSave[]): Promise<AccountToSave[]> {
  if (!link.rulesFor) return accounts;
  return Promise.all(
    accounts.map(async (account) => ({
      ...account,
      rules: await link.rulesFor!({
        id: '',
        provider: link.provider,
        username: account.identity.username,
        remoteId: account.identity.remoteId,
        tokens: account.tokens,
      }),
    })),
  );
}

/**
 * The network's link; 409 PROVIDER_NOT_CONFIGURED, naming the settings its app needs, where the operator has not set it.
 */
function linkOf(settings: ConnectionSettings, provider: string): AccountLink {
  const link = settings.links.get(provider);
  if (link) return link;
  throw new AppError('PROVIDER_NOT_CONFIGURED', 'providerNotConfigured', { provider: displayName(provider), settings: appSettingsOf(provider).join(' and ') });
}

const connectElsewhere = (provider: string, endpoint: string): AppError =>
  invalidRequest([
    { field: 'provider', code: 'connectElsewhere', messageKey: 'detail.connectElsewhere', params: { provider: displayName(provider), endpoint } },
  ]);

/** A URL a person names for their network (Mastodon instance, Bluesky PDS), through the SSRF guard: its origin. */
async function networkUrl(settings: ConnectionSettings, field: string, raw: string): Promise<string> {
  try {
    return (await checkDestination(raw, settings.allowedHosts)).url.origin;
  } catch (error) {
    if (!(error instanceof RefusedDestination)) throw error;
    throw invalidRequest([{ field, code: error.code, messageKey: `detail.networkUrl.${error.code}`, params: error.params }]);
  }
}

/** Where a person may be sent back to: http(s) on an allowed origin only (never an open redirect). */
function returnTarget(settings: ConnectionSettings, raw: string): string {
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password || !settings.returnOrigins.has(url.origin)) {
    const origins = [...settings.returnOrigins].join(', ');
    throw invalidRequest([{ field: 'redirectUri', code: 'notAllowed', messageKey: 'detail.redirectNotAllowed', params: { origins } }]);
  }
  return url.href;
}

function unavailable(provider: string, error: unknown): AppError {
  const reason = shownReason(error instanceof Error ? error.message : String(error));
  return new AppError('PROVIDER_UNAVAILABLE', 'providerUnavailable', { provider: displayName(provider), reason }, { cause: error });
}

/** A network call made while connecting: bounded in time, its failure a clear 503 with nothing written. */
async function callNetwork<Result>(provider: string, timeoutMs: number, call: () => Promise<Result>): Promise<Result> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new ProviderError('PROVIDER_UNAVAILABLE', `no answer within ${timeoutMs / 1000} s`, true)), timeoutMs);
  });
  try {
    return await Promise.race([call(), timeout]);
  } catch (error) {
    if (error instanceof AppError || error instanceof GrantRefused) throw error;
    if (error instanceof ProviderError && error.code === 'CREDENTIALS_REJECTED') throw error;
    // The network answered, and will answer the same again (a scope not granted, a Google account without a channel).
    if (error instanceof ProviderError && error.code === 'PROVIDER_REJECTED' && !error.transient) {
      throw new AppError('INVALID_REQUEST', 'connectionRefusedByNetwork', { reason: error.message }, { cause: error });
    }
    throw unavailable(provider, error);
  } finally {
    clearTimeout(timer);
  }
}

function oauthConnector(link: AccountLink, provider: string): OAuthConnector {
  if (link.connector.method !== 'oauth2') throw connectElsewhere(provider, 'POST /v1/social-accounts');
  return link.connector;
}

export interface StartConnectionInput {
  provider: string;
  redirectUri?: string | null;
  instanceUrl?: string | null;
  /** The way of connecting, where the network offers several (Instagram: `facebook_login`, `instagram_login`). */
  method?: string | null;
}

/**
 * The way of connecting asked for, or the network's default (its first the operator set up, else its first); null for
 * a network with one way. A way it
 * does not offer is 400 on `method`; one whose app the operator has not set is 409 PROVIDER_NOT_CONFIGURED naming it.
 */
function chosenMethod(connector: OAuthConnector, provider: string, asked: string | null | undefined): string | null {
  const { methods } = connector;
  if (!methods?.length) {
    if (!asked) return null;
    throw invalidRequest([{ field: 'method', code: 'notOffered', messageKey: 'detail.methodNotOffered', params: { provider: displayName(provider) } }]);
  }
  const method = asked
    ? methods.find((candidate) => candidate.name === asked)
    : (methods.find((candidate) => !candidate.missingSettings?.length) ?? methods[0]);
  if (!method) {
    throw invalidRequest([
      { field: 'method', code: 'enum', messageKey: 'detail.enum', params: { allowed: methods.map((candidate) => candidate.name).join(', ') } },
    ]);
  }
  if (method.missingSettings?.length) {
    throw new AppError('PROVIDER_NOT_CONFIGURED', 'providerNotConfigured', {
      provider: `${displayName(provider)} (${method.name})`,
      settings: method.missingSettings.join(' and '),
    });
  }
  return method.name;
}

export interface AuthorizationStart {
  /** The start link on the service (GET /oauth/start/{provider}), which sends the browser on to the network. */
  authorizationUrl: string;
  state: string;
  expiresAt: string;
}

/** POST /social-accounts/connect: the URL where the person authorizes the app at the network. */
export async function startAccountConnection(
  db: Database,
  settings: ConnectionSettings,
  actor: Actor,
  input: StartConnectionInput,
): Promise<AuthorizationStart> {
  authorize(actor, 'startAccountConnection');
  requirePlan(actor.plan);
  requireProvider(input.provider);
  const connector = oauthConnector(linkOf(settings, input.provider), input.provider);
  const method = chosenMethod(connector, input.provider, input.method);
  if (connector.instanceRequired && !input.instanceUrl) throw invalidRequest([{ field: 'instanceUrl', code: 'required', messageKey: 'detail.required' }]);
  const returnTo = input.redirectUri ? returnTarget(settings, input.redirectUri) : null;
  const instanceUrl = connector.instanceRequired && input.instanceUrl ? await networkUrl(settings, 'instanceUrl', input.instanceUrl) : undefined;
  const context: AuthorizationContext = { redirectUri: callbackUrl(settings.publicBaseUrl, input.provider), instanceUrl, method: method ?? undefined };
  const app: OAuthApp = await callNetwork(input.provider, settings.timeoutMs, () => connector.prepare(context));
  const state = oauth.generateRandomState();
  const { url, codeVerifier } = await authorizationRequest(app, state);
  url.searchParams.delete('state');
  const expiresAt = new Date(Date.now() + authorizationMinutes * 60_000);
  // Authorizations nobody came back for are dropped a day after they expired (kept that long to say "expired").
  await db.prisma.oAuthAuthorization.deleteMany({ where: { expiresAt: { lt: new Date(Date.now() - 86_400_000) } } });
  await db.prisma.connectionOutcome.deleteMany({ where: { createdAt: { lt: new Date(Date.now() - 86_400_000) } } });
  await db.prisma.oAuthAuthorization.create({
    data: {
      stateHash: hashSecret(state),
      workspaceId: actor.workspaceId,
      userId: actor.userId,
      provider: input.provider,
      encryptedCodeVerifier: codeVerifier ? settings.secrets.seal(codeVerifier) : null,
      returnTo,
      instanceUrl: instanceUrl ?? null,
      method,
      authorizationUrl: url.href,
      sessionHash: actor.sessionHash ?? null,
      expiresAt,
    },
  });
  const startLink = new URL(`${settings.publicBaseUrl}/oauth/start/${input.provider}`);
  startLink.searchParams.set('state', state);
  return { authorizationUrl: startLink.href, state, expiresAt: expiresAt.toISOString() };
}

/** Where the person goes when no `redirectUri` was given: the dashboard's accounts page, which says how it went. */
export const dashboardPath = '/accounts';

/**
 * An authorization that ended without an account. `returnTo` is where to send the person with `error` (an RFC 6749
 * error code the network gave, or ours in lower case) and `outcomeId` (what connectionOutcome reads), or null when
 * there is nowhere known to go (the state is unknown, or its start link was opened outside the session it is for).
 */
export class ConnectionFailure extends Error {
  constructor(
    readonly returnTo: string | null,
    readonly error: string,
    readonly reason: AppError,
    readonly outcomeId: string | null = null,
  ) {
    super(`${error}: ${reason.message}`);
    this.name = 'ConnectionFailure';
  }
}

const unknownAuthorization = () =>
  new AppError('INVALID_REQUEST', 'authorizationUnknown', {}, { details: [{ field: 'state', code: 'unknown', messageKey: 'authorizationUnknown' }] });
const expired = () => new AppError('INVALID_REQUEST', 'authorizationExpired', { minutes: authorizationMinutes });

export interface OpenedAuthorization {
  /** The network's authorization URL, with the state. */
  authorizationUrl: string;
  /** The secret the browser keeps (a cookie) and brings back to the callback. */
  binding: string;
  expiresAt: Date;
}

/** What the start link's visitor is told before an authorization started with an API key goes on to the network. */
export interface AuthorizationRequest {
  network: string;
  /** Where Continue sends the browser: the origin of the network's authorization URL. */
  networkOrigin: string;
  /** Where the flow ends when it is not the dashboard: the origin of the `redirectUri` it was started with. */
  returnOrigin: string | null;
  workspace: string;
  /** The person who started it: their name, else their email. */
  requester: string;
  expiresAt: Date;
}

/** The browser at the start link: the session it is signed in with, and whether its visitor chose to continue. */
interface StartLinkVisitor {
  sessionHash?: string;
  continued: boolean;
}

export type StartLinkAnswer = ({ kind: 'ask' } & AuthorizationRequest) | ({ kind: 'open' } & OpenedAuthorization);

const otherSession = () =>
  new ConnectionFailure(
    null,
    'access_denied',
    new AppError(
      'FORBIDDEN',
      'authorizationOtherSession',
      {},
      { details: [{ field: 'state', code: 'otherSession', messageKey: 'authorizationOtherSession' }] },
    ),
  );

/**
 * GET and POST /oauth/start/{provider}: the start link, in the browser that is to complete the authorization. Started
 * in the dashboard, it opens only in that session's browser (another browser is refused and the link stays usable
 * where it belongs). Started with an API key, it first answers what to ask the visitor, and opens when they continue.
 * It opens once (a second browser with the same link gets nothing), so exactly one browser ever holds the binding.
 */
export async function visitStartLink(db: Database, provider: string, state: string | null, visitor: StartLinkVisitor): Promise<StartLinkAnswer> {
  if (!state) throw new ConnectionFailure(null, 'invalid_request', unknownAuthorization());
  const pending = await db.prisma.oAuthAuthorization.findFirst({
    where: { stateHash: hashSecret(state), provider, authorizationUrl: { not: null } },
    select: {
      id: true,
      workspaceId: true,
      userId: true,
      returnTo: true,
      sessionHash: true,
      authorizationUrl: true,
      expiresAt: true,
      workspace: { select: { name: true } },
    },
  });
  if (!pending) throw new ConnectionFailure(null, 'invalid_request', unknownAuthorization());
  if (pending.sessionHash !== null && pending.sessionHash !== visitor.sessionHash) throw otherSession();
  if (pending.expiresAt <= new Date()) {
    // Taken once: of two visits at the same moment, the other finds nothing.
    const { count } = await db.prisma.oAuthAuthorization.deleteMany({ where: { id: pending.id } });
    if (!count) throw new ConnectionFailure(null, 'invalid_request', unknownAuthorization());
    const outcomeId = await recordOutcome(db.prisma, pending, provider, { error: 'expired_state', reason: expired() });
    throw new ConnectionFailure(pending.returnTo ?? dashboardPath, 'expired_state', expired(), outcomeId);
  }
  if (pending.sessionHash === null && !visitor.continued) {
    const requester = await db.prisma.user.findUnique({ where: { id: pending.userId }, select: { name: true, email: true } });
    return {
      kind: 'ask',
      network: displayName(provider),
      networkOrigin: new URL(pending.authorizationUrl!).origin,
      returnOrigin: pending.returnTo ? new URL(pending.returnTo).origin : null,
      workspace: pending.workspace.name,
      requester: requester?.name || requester?.email || '',
      expiresAt: pending.expiresAt,
    };
  }
  const binding = randomBytes(32).toString('base64url');
  const [opened] = await db.prisma.$queryRaw<Pick<OAuthAuthorization, 'authorizationUrl'>[]>`
    UPDATE oauth_authorization a SET binding_hash = ${hashSecret(binding)}, authorization_url = NULL
    FROM (SELECT id, authorization_url FROM oauth_authorization WHERE id = ${pending.id}::uuid AND authorization_url IS NOT NULL FOR UPDATE) unopened
    WHERE a.id = unopened.id
    RETURNING unopened.authorization_url AS "authorizationUrl"`;
  if (!opened) throw new ConnectionFailure(null, 'invalid_request', unknownAuthorization());
  const authorizationUrl = new URL(opened.authorizationUrl!);
  authorizationUrl.searchParams.set('state', state);
  return { kind: 'open', authorizationUrl: authorizationUrl.href, binding, expiresAt: pending.expiresAt };
}

type Ended = { connectionIds: string[] } | { error: string; reason: AppError };

/** Keeps how an authorization ended for the person who started it; answers the outcome's id (the authorization's). */
async function recordOutcome(
  prisma: Database['prisma'] | Transaction,
  authorization: { id: string; workspaceId: string; userId: string },
  provider: string,
  ended: Ended,
): Promise<string> {
  const { id, workspaceId, userId } = authorization;
  const fields =
    'error' in ended
      ? { connectionIds: [], error: ended.error, reason: { messageKey: ended.reason.messageKey, params: ended.reason.params } }
      : { connectionIds: ended.connectionIds };
  await prisma.connectionOutcome.create({ data: { id, workspaceId, userId, provider, ...fields } });
  return id;
}

export interface ConnectionOutcomeView {
  id: string;
  provider: string;
  connectionIds: string[];
  error: string | null;
  /** Why nothing was connected, as an error to render in the reader's language; null when accounts were. */
  reason: AppError | null;
  createdAt: Date;
}

/**
 * How an authorization ended, for the person who started it in its workspace; null for anyone else and for an id
 * that names none (an address with an arbitrary id shows nothing).
 */
export async function connectionOutcome(db: Database, actor: Actor, id: string): Promise<ConnectionOutcomeView | null> {
  authorize(actor, 'getConnectionOutcome');
  if (!isUuid(id)) return null;
  const row = await db.prisma.connectionOutcome.findFirst({ where: { id, workspaceId: actor.workspaceId, userId: actor.userId } });
  if (!row) return null;
  const reason = row.reason as { messageKey: MessageKey; params: MessageParams } | null;
  return {
    id: row.id,
    provider: row.provider,
    connectionIds: row.connectionIds,
    error: row.error,
    reason: reason && row.error ? new AppError('INVALID_REQUEST', reason.messageKey, reason.params) : null,
    createdAt: row.createdAt,
  };
}

export interface ConnectionOutcome {
  returnTo: string;
  connectionIds: string[];
  outcomeId: string;
}

type TakenAuthorization = Pick<
  OAuthAuthorization,
  'id' | 'workspaceId' | 'userId' | 'encryptedCodeVerifier' | 'returnTo' | 'instanceUrl' | 'method' | 'bindingHash' | 'expiresAt'
>;

/**
 * GET /oauth/callback/{provider}: the network sent the person back with a code (or a refusal) and our state;
 * `binding` is what their browser kept from the start link (undefined: nothing).
 */
export async function completeAccountConnection(
  db: Database,
  outbox: Outbox,
  settings: ConnectionSettings,
  provider: string,
  callback: URLSearchParams,
  binding: string | undefined,
): Promise<ConnectionOutcome> {
  const state = callback.get('state');
  if (!state) throw new ConnectionFailure(null, 'invalid_request', unknownAuthorization());
  // Taken at once: a second callback with the same state finds nothing. A callback from another browser uses it up
  // too: its state has left the browser it was meant for, so it is not to be trusted again.
  const [authorization] = await db.prisma.$queryRaw<TakenAuthorization[]>`
    DELETE FROM oauth_authorization WHERE state_hash = ${hashSecret(state)} AND provider = ${provider}
    RETURNING id, workspace_id AS "workspaceId", user_id AS "userId", encrypted_code_verifier AS "encryptedCodeVerifier",
              return_to AS "returnTo", instance_url AS "instanceUrl", method, binding_hash AS "bindingHash", expires_at AS "expiresAt"`;
  if (!authorization) throw new ConnectionFailure(null, 'invalid_request', unknownAuthorization());
  const returnTo = authorization.returnTo ?? dashboardPath;
  const fail = async (error: string, reason: AppError) =>
    new ConnectionFailure(returnTo, error, reason, await recordOutcome(db.prisma, authorization, provider, { error, reason }));
  if (!binding || authorization.bindingHash !== hashSecret(binding)) {
    throw await fail(
      'invalid_request',
      new AppError('INVALID_REQUEST', 'authorizationUnbound', {}, { details: [{ field: 'state', code: 'unbound', messageKey: 'authorizationUnbound' }] }),
    );
  }
  if (authorization.expiresAt <= new Date()) throw await fail('expired_state', expired());
  const refusal = callback.get('error');
  if (refusal) {
    const reason = shownReason(callback.get('error_description') ?? refusal);
    throw await fail(
      /^[a-z_]{1,64}$/.test(refusal) ? refusal : 'access_denied',
      new AppError('INVALID_REQUEST', 'authorizationDenied', { provider: displayName(provider), reason }),
    );
  }
  try {
    await requireManager(db, authorization.workspaceId, authorization.userId);
    const link = linkOf(settings, provider);
    const connector = oauthConnector(link, provider);
    const context: AuthorizationContext = {
      redirectUri: callbackUrl(settings.publicBaseUrl, provider),
      instanceUrl: authorization.instanceUrl ?? undefined,
      method: authorization.method ?? undefined,
    };
    const codeVerifier = authorization.encryptedCodeVerifier ? settings.secrets.open(authorization.encryptedCodeVerifier) : null;
    const accounts: ReachedAccount[] = await callNetwork(provider, settings.timeoutMs, async () => {
      const app = await connector.prepare(context);
      const tokens = await exchangeCode(app, displayName(provider), callback, codeVerifier, settings.timeoutMs);
      return withAccountRules(link, withShownAvatars(await connector.identities(tokens, context), settings.allowedHosts));
    });
    const connectionIds = await db.prisma.$transaction(async (tx) => {
      const saved = await saveReachedAccounts(tx, settings.secrets, outbox, authorization.workspaceId, provider, accounts);
      const ids = saved.map((account) => account.id);
      await recordOutcome(tx, authorization, provider, { connectionIds: ids });
      return ids;
    });
    return { returnTo, connectionIds, outcomeId: authorization.id };
  } catch (error) {
    if (error instanceof GrantRefused) {
      throw await fail(
        error.oauthError,
        new AppError('INVALID_REQUEST', 'authorizationCodeRefused', { provider: displayName(provider), reason: error.message }),
      );
    }
    if (error instanceof AppError) throw await fail(error.code.toLowerCase(), error);
    throw error;
  }
}

/**
 * An account an authorization reached: of the network connected, or of the one it names where one sign-in reaches
 * two networks (Facebook Login: Pages, and the Instagram accounts linked to them).
 */
type ReachedAccount = AccountToSave & { provider?: string };

/**
 * Saves each reached account under its network. Accounts the same person at the network granted before
 * (`tokens.extra.grantedBy`) that this authorization no longer reaches (a Page left out) need reconnecting.
 */
async function saveReachedAccounts(
  tx: Transaction,
  secrets: SecretBox,
  outbox: Outbox,
  workspaceId: string,
  provider: string,
  accounts: ReachedAccount[],
): Promise<SocialAccount[]> {
  const byNetwork = new Map<string, ReachedAccount[]>();
  for (const account of accounts) byNetwork.set(account.provider ?? provider, [...(byNetwork.get(account.provider ?? provider) ?? []), account]);
  const saved: SocialAccount[] = [];
  for (const [network, reached] of byNetwork) saved.push(...(await saveConnectedAccounts(tx, secrets, outbox, workspaceId, network, reached)));
  const grantors = new Set(accounts.flatMap((account) => account.tokens?.extra?.grantedBy ?? []));
  if (!grantors.size) return saved;
  const others = await tx.socialAccount.findMany({
    where: { workspaceId, status: 'ACTIVE', provider: { in: [...byNetwork.keys()] }, id: { notIn: saved.map((account) => account.id) } },
  });
  for (const other of others) {
    if (grantors.has(openTokens(secrets, other)?.extra?.grantedBy ?? '')) await markNeedsReconnect(tx, outbox, other.id);
  }
  return saved;
}

/** The person who started an authorization must still be an owner or admin of its workspace when it completes. */
async function requireManager(db: Database, workspaceId: string, userId: string): Promise<void> {
  const membership = await db.prisma.membership.findUnique({ where: { workspaceId_userId: { workspaceId, userId } } });
  const role = membership?.role ?? 'none';
  if (!managerRoles.includes(role as Role)) throw new AppError('FORBIDDEN', 'forbiddenRole', { role, operation: 'startAccountConnection' });
}

export interface AddAccountInput {
  provider: string;
  /** Sandbox */
  username?: string | null;
  displayName?: string | null;
  /** Credential networks: the fields the network's `connection.fields` name (GET /providers). */
  credentials?: Record<string, unknown> | null;
  /** Bluesky's fields beside `provider`, as before `credentials` (still accepted). */
  identifier?: string | null;
  appPassword?: string | null;
  service?: string | null;
}

/**
 * The credentials of a network's account as given, checked against its fields (400 with details where a value is
 * missing or malformed; the URL fields through the SSRF guard), and where the details name them: `credentials.<name>`,
 * or the field's own name for Bluesky's flat fields.
 */
async function givenCredentials(
  settings: ConnectionSettings,
  fields: readonly CredentialField[],
  input: AddAccountInput,
): Promise<{ credentials: Record<string, string>; at: string }> {
  const flat = input.credentials === undefined || input.credentials === null;
  const at = flat ? '' : 'credentials.';
  const given = flat
    ? Object.fromEntries(fields.flatMap(({ name }) => (input[name as keyof AddAccountInput] ? [[name, input[name as keyof AddAccountInput]]] : [])))
    : input.credentials;
  const details = credentialDetails(fields, given, at);
  if (details.length) throw invalidRequest(details);
  const credentials = { ...(given as Record<string, string>) };
  for (const field of fields) {
    if (field.format === 'url' && credentials[field.name]) credentials[field.name] = await networkUrl(settings, `${at}${field.name}`, credentials[field.name]!);
  }
  return { credentials, at };
}

/** POST /social-accounts: a credential network's account (Bluesky app password, Telegram bot) or a sandbox account. */
export async function addSocialAccount(
  db: Database,
  outbox: Outbox,
  settings: ConnectionSettings,
  actor: Actor,
  input: AddAccountInput,
): Promise<SocialAccount> {
  authorize(actor, 'addSocialAccount');
  requirePlan(actor.plan);
  requireProvider(input.provider);
  const link = linkOf(settings, input.provider);
  const { connector } = link;
  const profile = networkNamed(input.provider)?.connection;
  let account: AccountToSave;
  if (connector.method === 'oauth2') throw connectElsewhere(input.provider, 'POST /v1/social-accounts/connect');
  if (connector.method === 'local') {
    if (!input.username) throw invalidRequest([{ field: 'username', code: 'required', messageKey: 'detail.required' }]);
    const username = input.username;
    account = { identity: { remoteId: localRemoteId(input.provider, username), username, displayName: input.displayName || username }, tokens: null };
  } else {
    const fields = profile?.method === 'credentials' ? profile.fields : [];
    const { credentials, at } = await givenCredentials(settings, fields, input);
    try {
      account = await callNetwork(
        input.provider,
        settings.timeoutMs,
        async () => (await withAccountRules(link, withShownAvatars([await connector.connect(credentials)], settings.allowedHosts)))[0]!,
      );
    } catch (error) {
      if (!(error instanceof ProviderError && error.code === 'CREDENTIALS_REJECTED')) throw error;
      const provider = displayName(input.provider);
      // The field the network refused, where it says which; else the secret one (a password, a token).
      const field = error.field ?? fields.find((candidate) => candidate.secret)?.name ?? fields[0]?.name ?? 'credentials';
      throw new AppError(
        'VALIDATION_FAILED',
        'credentialsRejected',
        { provider },
        {
          details: [{ field: `${at}${field}`, code: 'rejected', messageKey: 'detail.credentialsRejected', params: { provider, reason: error.message } }],
        },
      );
    }
  }
  const [saved] = await db.prisma.$transaction((tx) => saveConnectedAccounts(tx, settings.secrets, outbox, actor.workspaceId, input.provider, [account]));
  return saved!;
}

/**
 * DELETE /social-accounts/{id} (and the CLI's `accounts revoke`): the account is REVOKED with its tokens erased,
 * then the tokens are revoked at the network where it offers that, best effort (the account is disconnected here
 * whatever the network answers).
 */
export async function disconnectAccount(
  db: Database,
  outbox: Outbox,
  settings: ConnectionSettings,
  connectionId: string,
  workspaceId?: string,
): Promise<SocialAccount> {
  const { account, encryptedTokens } = await revokeSocialAccount(db, outbox, connectionId, workspaceId);
  const link = settings.links.get(account.provider);
  const revoke = link?.revoke?.bind(link);
  const tokens: ProviderTokens | null = openTokens(settings.secrets, { encryptedTokens });
  if (revoke && tokens) {
    const connected = { id: account.id, provider: account.provider, username: account.username, remoteId: account.remoteId, tokens };
    await callNetwork(account.provider, settings.timeoutMs, () => revoke(connected)).catch(() => undefined);
  }
  return account;
}

export async function disconnectSocialAccount(
  db: Database,
  outbox: Outbox,
  settings: ConnectionSettings,
  actor: Actor,
  connectionId: string,
): Promise<SocialAccount> {
  authorize(actor, 'disconnectSocialAccount');
  return disconnectAccount(db, outbox, settings, connectionId, actor.workspaceId);
}

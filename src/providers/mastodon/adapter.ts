// Mastodon, through each person's own instance (the account's tokens carry its URL). What each call does is
// documented at docs.joinmastodon.org:
//   connect   app per instance (apps.ts), OAuth 2.0 authorization code with PKCE where the instance offers it
//             (4.3+, announced in /.well-known/oauth-authorization-server), identity from verify_credentials
//   rules     the instance's limits from /api/v2/instance (instanceRules.ts)
//   publish   media through POST /api/v2/media (alt text as `description`), streamed from storage, each upload a
//             step of the checkpoint (a re-attempt uploads nothing twice); large files answer 202 and are
//             processed in the background: the target then waits (`processing`), and the status check resumes
//             the publish, asking GET /api/v1/media/:id until every file is ready, then posts.
//             POST /api/v1/statuses carries `Idempotency-Key` = the target id. A thread's parts are statuses with
//             `in_reply_to_id` the part before (https://docs.joinmastodon.org/methods/statuses/#create), keys
//             `<target id>:part:<i>`; a first comment is one more reply, to the last part.
//   no duplicates  Mastodon keeps idempotency keys for 1 hour: a re-attempt within that hour gets the status the
//             first attempt created, whatever happened to our side meanwhile. Mastodon offers no lookup by key, so
//             nothing can see past that hour (see docs/networks/mastodon.md).
//   tokens    Mastodon's access tokens do not expire and have no refresh token; revoked ones answer 401.
import type { Database } from '../../db/database.ts';
import type { SecretBox } from '../../crypto/secretBox.ts';
import { invalidRequest } from '../../errors/appError.ts';
import { ProviderError } from '../adapter.ts';
import type { AuthorizationContext, ConnectedAccount, OAuthConnector, ProviderAdapter, ProviderTokens } from '../adapter.ts';
import type { ItemMetrics, PublishMedia, PublishOutcome, PublishRequest, PublishedItem } from '../adapter.ts';
import { Steps } from '../kit/steps.ts';
import { postFirstComment, publishThread } from '../kit/thread.ts';
import { multipartFileBody } from '../kit/upload.ts';
import type { ProviderRules } from '../rules.ts';
import type { NetworkHttp } from '../http.ts';
import { instanceOrigin, type Account, type AuthorizationServerMetadata, type MediaAttachment, type Status } from './api.ts';
import { MastodonApps, mastodonScopes } from './apps.ts';
import { InstanceRules } from './instanceRules.ts';
import { mastodonRules } from './network.ts';
import { NetworkAdapter } from '../kit/networkAdapter.ts';

export interface MastodonAdapterOptions {
  db: Database;
  secrets: SecretBox;
  /** The service's public URL: the app's website on every instance. */
  publicBaseUrl: string;
  /** The app's name on every instance's authorization page. */
  appName?: string;
  /** How long an instance's limits are kept before they are read again. */
  instanceRulesTtlMs?: number;
  /** When the worker should look again at media the instance is still processing. */
  mediaCheckAfterMs?: number;
  /** The instance's API through the SSRF guard (`mastodonHttp`): instances are hosts people name. */
  http: NetworkHttp;
}

interface Session {
  instance: string;
  accessToken: string;
}

/** An uploaded file as the checkpoint keeps it: ready once the instance has processed it. */
interface UploadedMedia {
  id: string;
  ready: boolean;
}

export class MastodonAdapter extends NetworkAdapter implements ProviderAdapter {
  readonly connector: OAuthConnector = {
    method: 'oauth2',
    instanceRequired: true,
    prepare: (context) => this.#prepare(context),
    identities: (tokens, context) => this.#identities(tokens, context),
  };
  readonly #http: NetworkHttp;
  readonly #apps: MastodonApps;
  readonly #instanceRules: InstanceRules;
  readonly #mediaCheckAfterMs: number;

  constructor(options: MastodonAdapterOptions) {
    super({ rules: mastodonRules, duplicates: 'idempotency-key' });
    this.#http = options.http;
    this.#apps = new MastodonApps(options.db, options.secrets, this.#http, {
      name: options.appName ?? 'Social Publishing Service',
      website: options.publicBaseUrl,
    });
    this.#instanceRules = new InstanceRules(this.#http, options.instanceRulesTtlMs ?? 60 * 60_000);
    this.#mediaCheckAfterMs = options.mediaCheckAfterMs ?? 5000;
  }

  async #prepare(context: AuthorizationContext) {
    if (!context.instanceUrl) throw invalidRequest([{ field: 'instanceUrl', code: 'required', messageKey: 'detail.required' }]);
    const instance = instanceOrigin(context.instanceUrl);
    const [app, metadata] = await Promise.all([this.#apps.appFor(instance, context.redirectUri), this.#authorizationServer(instance)]);
    // The instance's word: each endpoint it announces must pass the guard's rule before it is called or shown.
    const endpoint = (announced: string | undefined, path: string, what: string) =>
      announced === undefined ? `${instance}${path}` : this.#http.urlFromNetwork(announced, what);
    return {
      client: { clientId: app.clientId, clientSecret: app.clientSecret, redirectUri: context.redirectUri },
      server: {
        authorizationEndpoint: endpoint(metadata.authorization_endpoint, '/oauth/authorize', 'authorization endpoint'),
        tokenEndpoint: endpoint(metadata.token_endpoint, '/oauth/token', 'token endpoint'),
        revocationEndpoint: endpoint(metadata.revocation_endpoint, '/oauth/revoke', 'revocation endpoint'),
        scopes: mastodonScopes,
        pkce: metadata.code_challenge_methods_supported?.includes('S256') ?? false,
        fetch: this.#http.fetch,
      },
    };
  }

  /** RFC 8414 metadata where the instance serves it (4.3+); older instances answer 404 and get the documented paths. */
  async #authorizationServer(instance: string): Promise<AuthorizationServerMetadata> {
    const { status, body } = await this.#http.send<unknown>({ method: 'GET', url: `${instance}/.well-known/oauth-authorization-server`, accept: [404] });
    return status === 200 && typeof body === 'object' && body !== null ? (body as AuthorizationServerMetadata) : {};
  }

  async #identities(tokens: ProviderTokens, context: AuthorizationContext) {
    if (!context.instanceUrl) throw invalidRequest([{ field: 'instanceUrl', code: 'required', messageKey: 'detail.required' }]);
    const instance = instanceOrigin(context.instanceUrl);
    const [{ body: account }, app] = await Promise.all([
      this.#http.send<Account>({ method: 'GET', url: `${instance}/api/v1/accounts/verify_credentials`, accessToken: tokens.accessToken }),
      this.#apps.appFor(instance, context.redirectUri),
    ]);
    const host = new URL(instance).host;
    return [
      {
        // Account ids are unique per instance only; the full address (`name@instance`) is what people know.
        identity: {
          remoteId: `${account.id}@${host}`,
          username: `${account.username}@${host}`,
          displayName: account.display_name || account.username,
          avatarUrl: account.avatar ?? null,
        },
        tokens: { ...tokens, extra: { ...tokens.extra, instanceUrl: instance, clientId: app.clientId } },
      },
    ];
  }

  async rulesFor(account: ConnectedAccount): Promise<ProviderRules> {
    const instance = account.tokens?.extra?.instanceUrl;
    return instance ? this.#instanceRules.of(instance) : mastodonRules;
  }

  async revoke(account: ConnectedAccount): Promise<void> {
    const session = sessionOf(account);
    const clientId = account.tokens?.extra?.clientId;
    const app = clientId ? await this.#apps.byClientId(session.instance, clientId) : null;
    // Tokens given by hand (operator CLI) belong to an app we do not hold: nothing to revoke them with.
    if (!app) return;
    await this.#http.send({
      method: 'POST',
      url: `${session.instance}/oauth/revoke`,
      body: { form: { client_id: app.clientId, client_secret: app.clientSecret, token: session.accessToken } },
      idempotent: true,
    });
  }

  /**
   * The files of the post and of every part of its thread first (the status waits until the instance has processed
   * them all), then the status, each part as a reply to the one before (`in_reply_to_id`), and the first comment as a
   * reply to the last part; each status a step with its own idempotency key.
   */
  async publish(request: PublishRequest): Promise<PublishOutcome> {
    const session = sessionOf(request.account);
    const steps = new Steps(request.checkpoint);
    const uploads: UploadedMedia[][] = [await this.#uploads(session, steps, 'media', request.media, request.signal)];
    for (const [index, part] of request.thread.entries()) uploads.push(await this.#uploads(session, steps, `reply:${index}:media`, part.media, request.signal));
    if (uploads.flat().some((upload) => !upload.ready)) return { status: 'processing', handle: 'media', checkAfterMs: this.#mediaCheckAfterMs };
    const mediaIds = uploads.map((files) => files.map((upload) => upload.id));
    const key = request.idempotencyKey;
    const first = await steps.once('status', () => this.#post(session, request, { text: request.caption, mediaIds: mediaIds[0]!, key }));
    const parts = await publishThread(steps, request.thread, first, (part, parent, _root, index) =>
      this.#post(session, request, { text: part.caption, mediaIds: mediaIds[index + 1]!, key: `${key}:part:${index}`, inReplyTo: parent.remoteId }),
    );
    const firstComment = await postFirstComment(steps, request.firstComment, (text) =>
      this.#post(session, request, { text, mediaIds: [], key: `${key}:firstComment`, inReplyTo: parts[parts.length - 1]!.remoteId }),
    );
    return { status: 'published', item: { ...first, ...(request.thread.length ? { parts } : {}), ...(firstComment ? { firstComment } : {}) } };
  }

  /** Uploads one post's files once; a file an earlier attempt left processing at the instance is asked about. */
  async #uploads(session: Session, steps: Steps, prefix: string, media: PublishMedia[], signal: AbortSignal): Promise<UploadedMedia[]> {
    const uploaded: UploadedMedia[] = [];
    for (const [index, file] of media.entries()) {
      const step = `${prefix}:${index}`;
      const earlier = steps.result<UploadedMedia>(step);
      uploaded.push(
        earlier && !earlier.ready
          ? await steps.record(step, await this.#state(session, earlier.id, signal))
          : await steps.once(step, () => this.#upload(session, file, signal)),
      );
    }
    return uploaded;
  }

  async metrics(account: ConnectedAccount, remoteId: string): Promise<ItemMetrics> {
    const session = sessionOf(account);
    const { body } = await this.#http.send<Status>({
      method: 'GET',
      url: `${session.instance}/api/v1/statuses/${encodeURIComponent(remoteId)}`,
      accessToken: session.accessToken,
    });
    return { likes: body.favourites_count, shares: body.reblogs_count, comments: body.replies_count };
  }

  /** 206 while the instance is still processing the file, 200 once it is ready (https://docs.joinmastodon.org/methods/media/#get). */
  async #state(session: Session, id: string, signal: AbortSignal): Promise<UploadedMedia> {
    const { status } = await this.#http.send<MediaAttachment>({
      method: 'GET',
      url: `${session.instance}/api/v1/media/${encodeURIComponent(id)}`,
      accessToken: session.accessToken,
      signal,
    });
    return { id, ready: status !== 206 };
  }

  async #upload(session: Session, media: PublishMedia, signal: AbortSignal): Promise<UploadedMedia> {
    // Streamed, so sent once: a failed upload is sent again by the next attempt (an unused copy left at the instance
    // is removed by it after a day).
    const { status, body } = await this.#http.send<MediaAttachment>({
      method: 'POST',
      url: `${session.instance}/api/v2/media`,
      accessToken: session.accessToken,
      body: multipartFileBody(media.altText ? { description: media.altText } : {}, { field: 'file', filename: media.id, media }),
      signal,
    });
    return { id: idOf(body, 'media attachment'), ready: status !== 202 };
  }

  async #post(
    session: Session,
    request: PublishRequest,
    status: { text: string; mediaIds: string[]; key: string; inReplyTo?: string },
  ): Promise<PublishedItem> {
    const { visibility = 'public', spoilerText = '' } = request.settings as { visibility?: string; spoilerText?: string };
    const { body } = await this.#http.send<Status>({
      method: 'POST',
      url: `${session.instance}/api/v1/statuses`,
      accessToken: session.accessToken,
      headers: { 'idempotency-key': status.key },
      body: {
        json: {
          status: status.text,
          media_ids: status.mediaIds,
          visibility,
          ...(spoilerText ? { spoiler_text: spoilerText } : {}),
          ...(status.inReplyTo ? { in_reply_to_id: status.inReplyTo } : {}),
        },
      },
      signal: request.signal,
      // Safe to send again: the instance answers a repeated key with the status it already created.
      idempotent: true,
    });
    return { remoteId: idOf(body, 'status'), remoteUrl: body.url ?? body.uri };
  }
}

function sessionOf(account: ConnectedAccount): Session {
  const instance = account.tokens?.extra?.instanceUrl;
  const accessToken = account.tokens?.accessToken;
  if (!instance || !accessToken) throw new ProviderError('ACCOUNT_NEEDS_RECONNECT', 'The account has no Mastodon tokens: connect it again.', false);
  return { instance, accessToken };
}

/** The id of what the instance created; an answer without one is not Mastodon's (a proxy's page, a broken instance). */
function idOf(body: { id?: unknown }, what: string): string {
  if (typeof body === 'object' && body !== null && typeof body.id === 'string') return body.id;
  throw new ProviderError('PROVIDER_UNAVAILABLE', `Mastodon answered without the ${what}'s id.`, true);
}

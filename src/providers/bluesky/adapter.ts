// Bluesky through the official @atproto/api client, against the account's own PDS.
// - Sessions come from app passwords (the account password is refused): the access JWT, the refresh JWT, the DID
//   and the PDS URL are the account's tokens. Nothing here refreshes on its own: `refresh` is called by the
//   service's token lifecycle, which stores what it returns (refresh tokens rotate).
// - A target's post is written with a record key derived from the target id (recordKey.ts) and `swapRecord: null`
//   (write only if absent), so an attempt can never create a second record, and `findPublished` is one lookup.
//   Each uploaded blob is a step of the checkpoint (kit/steps.ts): a re-attempt does not upload it again.
// - Threads: each part is a reply record naming the first post as `root` and the part before as `parent` (strong
//   refs: uri and cid; app.bsky.feed.post's `reply`, https://docs.bsky.app/docs/advanced-guides/posts#replies); a
//   first comment is one more reply, to the last part.
// - Embeds: up to 4 images with alt text and aspect ratio (re-encoded under the blob limit when needed), or one
//   video uploaded as a blob to the PDS, or else a link card for the first link.
import type { AppBskyFeedPost, BlobRef } from '@atproto/api';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { ProviderError } from '../adapter.ts';
import type { ConnectedAccount, CredentialConnector, ProviderAdapter, ProviderTokens, RemoteIdentity } from '../adapter.ts';
import type { ItemMetrics, PublishMedia, PublishOutcome, PublishRequest, PublishedItem } from '../adapter.ts';
import { RefusedDestination, webUrl } from '../../outbound/guard.ts';
import { blueskyRules } from './network.ts';
import { NetworkAdapter } from '../kit/networkAdapter.ts';
import { mapErrors, providerErrorOf, xrpcErrorName } from './errors.ts';
import { prepareImage } from './images.ts';
import { linkCardFor } from './linkCard.ts';
import { recordKeyFor } from './recordKey.ts';
import { BlueskyClient, postCollection, postItem, type ClientSettings, type Session } from './client.ts';
import { richTextOf } from './richText.ts';
import { atproto } from './sdk.ts';
import { Steps } from '../kit/steps.ts';
import { postFirstComment, publishThread } from '../kit/thread.ts';

export const defaultBlueskyService = 'https://bsky.social';
/** Uploads of media blobs (a video may be 50 MB) get at least this long. */
const uploadTimeoutMs = 120_000;
/** JWT scopes of sessions made with an app password (privileged ones may also read direct messages). */
const appPasswordScopes = new Set(['com.atproto.appPass', 'com.atproto.appPassPrivileged']);
const useAnAppPassword = 'Use an app password (Settings → Privacy and security → App passwords), not the account password.';

export type BlueskySettings = ClientSettings;

/** The part of a JWT's payload we read (the PDS's own tokens; nothing here relies on it for security). */
function claimsOf(jwt: string): { exp?: number; scope?: string } {
  try {
    return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8'));
  } catch {
    return {};
  }
}

/** What createSession and refreshSession answer. */
interface SessionData {
  accessJwt: string;
  refreshJwt: string;
  did: string;
  handle: string;
  didDoc?: unknown;
}

function tokensOf(session: SessionData, pdsUrl: string, authService: string): ProviderTokens {
  const exp = claimsOf(session.accessJwt).exp;
  return {
    accessToken: session.accessJwt,
    refreshToken: session.refreshJwt,
    ...(exp ? { expiresAt: new Date(exp * 1000).toISOString() } : {}),
    extra: { did: session.did, handle: session.handle, pdsUrl, service: authService },
  };
}

/**
 * Where the account's repository lives: the PDS named in its DID document (bsky.social is an entryway to several).
 * The document is the network's word: its PDS must pass the same rule as a URL a person gives (`webUrl`).
 */
function pdsUrlOf(didDoc: unknown, fallback: string, allowedHosts: ReadonlySet<string>): string {
  const services = (didDoc as { service?: { id?: string; serviceEndpoint?: unknown }[] } | undefined)?.service ?? [];
  const pds = services.find((service) => service.id === '#atproto_pds' && typeof service.serviceEndpoint === 'string');
  if (!pds) return fallback;
  try {
    webUrl(pds.serviceEndpoint as string, allowedHosts);
    return pds.serviceEndpoint as string;
  } catch (error) {
    if (!(error instanceof RefusedDestination)) throw error;
    throw new ProviderError(
      'PROVIDER_REJECTED',
      `Bluesky: the account's DID document names a PDS that cannot be used. ${error.reasonWith('NETWORK_ALLOWED_HOSTS')}`,
      false,
    );
  }
}

export class BlueskyAdapter extends NetworkAdapter implements ProviderAdapter {
  readonly connector: CredentialConnector;
  readonly #allowedHosts: ReadonlySet<string>;
  readonly #client: BlueskyClient;

  constructor(settings: BlueskySettings) {
    super({ rules: blueskyRules, duplicates: 'deterministic-id' });
    this.#allowedHosts = settings.allowedHosts;
    this.#client = new BlueskyClient(settings);
    this.connector = { method: 'credentials', connect: (credentials) => this.#connect(credentials) };
  }

  /** `{identifier, appPassword, service?}`: the handle (or e-mail) and an app password, at `service` (default bsky.social). */
  async #connect(credentials: Record<string, string>): Promise<{ identity: RemoteIdentity; tokens: ProviderTokens }> {
    const service = credentials.service || defaultBlueskyService;
    const agent = await this.#client.agentFor(service);
    let session: SessionData;
    try {
      const { data } = await agent.com.atproto.server.createSession(
        { identifier: credentials.identifier ?? '', password: credentials.appPassword ?? '' },
        this.#client.callOptions(),
      );
      session = data;
      if (!appPasswordScopes.has(claimsOf(data.accessJwt).scope ?? '')) {
        await agent.com.atproto.server.deleteSession(undefined, { headers: { authorization: `Bearer ${data.refreshJwt}` } }).catch(() => {});
        throw new ProviderError('CREDENTIALS_REJECTED', useAnAppPassword, false);
      }
    } catch (error) {
      if (error instanceof ProviderError) throw error;
      const name = await xrpcErrorName(error);
      // Bluesky e-mails a sign-in code when the account password is given to an account with two-factor sign-in; an
      // app password never asks for one (https://github.com/bluesky-social/bsky-docs/issues/269).
      if (name === 'AuthFactorTokenRequired') {
        throw new ProviderError(
          'CREDENTIALS_REJECTED',
          `Bluesky asks for the sign-in code it e-mailed, as it does for the account password. ${useAnAppPassword}`,
          false,
        );
      }
      if (['AuthenticationRequired', 'InvalidRequest'].includes(name)) {
        throw new ProviderError('CREDENTIALS_REJECTED', (error as Error).message || 'Bluesky refused the identifier or app password.', false);
      }
      throw await providerErrorOf(error);
    }
    const pdsUrl = pdsUrlOf(session.didDoc, service, this.#allowedHosts);
    const pds = await this.#client.agentFor(pdsUrl);
    const profile = await pds.com.atproto.repo
      .getRecord({ repo: session.did, collection: 'app.bsky.actor.profile', rkey: 'self' }, this.#client.callOptions())
      .then(
        ({ data }) => data.value as { displayName?: string },
        () => null,
      );
    return {
      identity: { remoteId: session.did, username: session.handle, displayName: profile?.displayName?.trim() || session.handle, avatarUrl: null },
      tokens: tokensOf(session, pdsUrl, service),
    };
  }

  /** com.atproto.server.refreshSession at the service that made the session (the entryway for bsky.social). */
  async refresh(account: ConnectedAccount): Promise<ProviderTokens> {
    const session = await this.#client.session(account, 'refresh');
    const { data } = await mapErrors(() => session.agent.com.atproto.server.refreshSession(undefined, this.#client.callOptions(session)));
    return tokensOf(data, account.tokens?.extra?.pdsUrl ?? pdsUrlOf(data.didDoc, session.service, this.#allowedHosts), session.service);
  }

  /** Ends the session at the PDS (best effort), which also invalidates its refresh token. */
  async revoke(account: ConnectedAccount): Promise<void> {
    const session = await this.#client.session(account, 'refresh');
    await mapErrors(() => session.agent.com.atproto.server.deleteSession(undefined, this.#client.callOptions(session)));
  }

  /**
   * The post, then each part of a thread as a reply to the part before (`reply.root` the first post, `reply.parent`
   * the part before, both strong refs), then the first comment as a reply to the last part. Every record has a key
   * derived from the target id and its place, so no attempt writes one twice.
   */
  async publish(request: PublishRequest): Promise<PublishOutcome> {
    const session = await this.#client.session(request.account);
    const steps = new Steps(request.checkpoint);
    return mapErrors(async () => {
      const write = (key: string, post: { caption: string; media: PublishMedia[] }, blobs: string, reply?: ReplyRefs) =>
        this.#write(session, request, { rkey: recordKeyFor(key), caption: post.caption, media: post.media, steps, blobs, reply });
      const first = await write(request.idempotencyKey, request, '');
      const parts = await publishThread(steps, request.thread, first, (part, parent, root, index) =>
        write(`${request.idempotencyKey}:part:${index}`, part, `reply:${index}:`, replyTo(root, parent)),
      );
      const last = parts[parts.length - 1]!;
      const firstComment = await postFirstComment(steps, request.firstComment, (text) =>
        write(`${request.idempotencyKey}:firstComment`, { caption: text, media: [] }, 'comment:', replyTo(first, last)),
      );
      return {
        status: 'published',
        item: { ...itemOf(first), ...(request.thread.length ? { parts: parts.map(itemOf) } : {}), ...(firstComment ? { firstComment } : {}) },
      };
    });
  }

  /** Writes one post record if absent (`swapRecord: null`); its strong ref (uri and cid) comes back with the item. */
  async #write(
    session: Session,
    request: PublishRequest,
    post: { rkey: string; caption: string; media: PublishMedia[]; steps: Steps; blobs: string; reply: ReplyRefs | undefined },
  ): Promise<PostRef> {
    const text = await richTextOf(post.caption, session.agent);
    const { langs = [], contentLabels = [] } = request.settings as { langs?: string[]; contentLabels?: string[] };
    const record: AppBskyFeedPost.Record = {
      $type: postCollection,
      text: text.text,
      createdAt: new Date().toISOString(),
      ...(post.reply ? { reply: post.reply } : {}),
      ...(text.facets.length ? { facets: text.facets } : {}),
      ...(langs.length ? { langs } : {}),
      ...(contentLabels.length ? { labels: { $type: 'com.atproto.label.defs#selfLabels', values: contentLabels.map((val) => ({ val })) } } : {}),
    };
    const embed = await this.#embedOf(session, post.steps, post.blobs, post.media, request.signal, text.firstLink);
    if (embed) record.embed = embed;
    const where = { repo: session.did, collection: postCollection, rkey: post.rkey };
    const cid = await this.#client.putOnce(session, where, record, request.signal);
    return { ...this.#item(request.account, session.did, post.rkey), cid };
  }

  async findPublished(request: PublishRequest): Promise<PublishedItem | null> {
    const session = await this.#client.session(request.account);
    const rkey = recordKeyFor(request.idempotencyKey);
    return mapErrors(async () => {
      const found = await this.#client.findRecord(session, { repo: session.did, collection: postCollection, rkey }, request.signal);
      return found === null ? null : this.#item(request.account, session.did, rkey);
    });
  }

  /**
   * Likes, replies, reposts and quotes are records in other people's repositories: only an AppView counts them. The
   * PDS passes app.bsky.feed.getPosts on to its AppView (bsky.social's does). Where no AppView answers, the PDS can
   * only confirm that the post still exists: the counts are then zero.
   */
  async metrics(account: ConnectedAccount, remoteId: string): Promise<ItemMetrics> {
    const session = await this.#client.session(account);
    const counted = await session.agent.app.bsky.feed.getPosts({ uris: [remoteId] }, this.#client.callOptions(session)).then(
      ({ data }) => data.posts[0] ?? null,
      () => undefined,
    );
    if (counted) {
      return { likes: counted.likeCount ?? 0, comments: counted.replyCount ?? 0, shares: (counted.repostCount ?? 0) + (counted.quoteCount ?? 0) };
    }
    const [, , repo, collection, rkey] = remoteId.split('/');
    await mapErrors(() => session.agent.com.atproto.repo.getRecord({ repo: repo!, collection: collection!, rkey: rkey! }, this.#client.callOptions(session)));
    return { likes: 0, comments: 0, shares: 0 };
  }

  #item(account: ConnectedAccount, did: string, rkey: string): PublishedItem {
    return postItem(account.tokens?.extra?.handle ?? account.username, `at://${did}/${postCollection}/${rkey}`);
  }

  /** The post's embed; its blobs are steps named `blobs` + `video` or `image:<i>` (a thread's parts each have their own). */
  async #embedOf(
    session: Session,
    steps: Steps,
    blobs: string,
    media: PublishMedia[],
    signal: AbortSignal,
    firstLink: string | null,
  ): Promise<AppBskyFeedPost.Record['embed']> {
    const { jsonToLex, lexToJson } = await atproto();
    /** Uploads the blob once across attempts; the checkpoint keeps its reference as JSON. */
    const blobOnce = async <Extra>(name: string, upload: () => Promise<{ blob: BlobRef; extra: Extra }>) => {
      const saved = await steps.once(`${blobs}${name}`, async () => {
        const { blob, extra } = await upload();
        return { blob: lexToJson(blob), extra };
      });
      return { blob: jsonToLex(saved.blob) as BlobRef, extra: saved.extra as Extra };
    };
    const upload = (encoding: string) => ({ ...this.#client.callOptions(session, signal, Math.max(this.#client.timeoutMs, uploadTimeoutMs)), encoding });
    const video = media.find((file) => file.kind === 'video');
    if (video) {
      const { blob } = await blobOnce('video', async () => {
        const { data } = await session.agent.com.atproto.repo.uploadBlob(await bytesOf(video), upload('video/mp4'));
        return { blob: data.blob, extra: null };
      });
      return {
        $type: 'app.bsky.embed.video',
        video: blob,
        ...(video.altText ? { alt: video.altText } : {}),
        ...(video.width && video.height ? { aspectRatio: { width: video.width, height: video.height } } : {}),
      };
    }
    if (media.length) {
      const images = [];
      for (const [index, file] of media.entries()) {
        const { blob, extra: aspectRatio } = await blobOnce(`image:${index}`, async () => {
          const image = await prepareImage(await bytesOf(file), file.mimeType);
          const { data } = await session.agent.com.atproto.repo.uploadBlob(image.bytes, upload(image.mimeType));
          return { blob: data.blob, extra: image.aspectRatio };
        });
        images.push({ image: blob, alt: file.altText ?? '', aspectRatio });
      }
      return { $type: 'app.bsky.embed.images', images };
    }
    if (firstLink) {
      const card = await linkCardFor(firstLink, this.#allowedHosts, signal);
      return { $type: 'app.bsky.embed.external', external: card };
    }
    return undefined;
  }
}

/** A post record: its item, and its cid (the other half of the strong ref a reply names it by). */
type PostRef = PublishedItem & { cid: string };

type ReplyRefs = NonNullable<AppBskyFeedPost.Record['reply']>;

function replyTo(root: PublishedItem, parent: PublishedItem): ReplyRefs {
  const ref = (item: PublishedItem) => ({ uri: item.remoteId, cid: (item as PostRef).cid });
  return { root: ref(root), parent: ref(parent) };
}

const itemOf = ({ remoteId, remoteUrl }: PublishedItem): PublishedItem => ({ remoteId, remoteUrl });

async function bytesOf(file: PublishMedia): Promise<Buffer> {
  const stream = await file.open();
  return buffer(stream instanceof Readable ? stream : Readable.from(stream));
}

// LinkedIn: members and the organization pages they administer (accounts.ts), posting through the versioned Posts
// API (https://learn.microsoft.com/linkedin/marketing/community-management/shares/posts-api):
//   publish   images (Images API) and video (Videos API, parts by byte range), each processed before the post (the
//             target waits, `processing`, and the status check resumes the publish), are uploaded as checkpoint steps
//             (media.ts); then POST /rest/posts {author, commentary (little text: littleText.ts), visibility,
//             distribution, lifecycleState, content: media {id, altText} | multiImage {images}}; the post's URN is
//             the answer's `x-restli-id` header, its page https://www.linkedin.com/feed/update/<urn>/.
//   no duplicates  LinkedIn takes no idempotency key: a post step an earlier attempt started and did not see
//             answered is looked up among the author's latest posts (GET /rest/posts?q=author) before posting
//             again. A member's posts can be read only with r_member_social (granted to few apps): where LinkedIn
//             refuses the look-up, the target fails rather than risk a second post (docs/networks/linkedin.md).
//   first comment  `settings.firstComment` once the post exists (kit/thread.ts): Comments API
//             (https://learn.microsoft.com/linkedin/marketing/community-management/shares/comments-api) POST
//             /rest/socialActions/{post urn}/comments {actor: the post's author (member or organization), object: the
//             post, message: {text}} (w_member_social / w_organization_social); the comment's URN in the answer.
//   rules     a page's account is stored with `visibility` narrowed to PUBLIC and LOGGED_IN (rules.ts: LinkedIn takes
//             CONNECTIONS from members only), and its settings form offered those two (settingOptions).
//   metrics   an organization's posts: Organization Share Statistics
//             (https://learn.microsoft.com/linkedin/marketing/community-management/organizations/share-statistics);
//             LinkedIn offers no statistics of a member's posts to this app's scopes, so those read as zeros.
import type { OAuthAdapterDependencies } from '../network.ts';
import { ProviderError } from '../adapter.ts';
import type { ConnectedAccount, ItemMetrics, ProviderAdapter, PublishOutcome, PublishRequest, PublishedItem, SettingOptions } from '../adapter.ts';
import type { AccountRules } from '../rules.ts';
import { apiOptions, linkOf, OAuthAdapter, type OAuthAdapterOptions } from '../kit/oauthAdapter.ts';
import { Steps } from '../kit/steps.ts';
import { postFirstComment } from '../kit/thread.ts';
import { LinkedInApi, restliUrn } from './api.ts';
import { commentUrl, lookUp, ownComment, postComment } from './comments.ts';
import { linkedinProfile } from './accounts.ts';
import type { LinkedInProducts } from './products.ts';
import { littleText } from './littleText.ts';
import { imagesAvailable, sessionOf, uploadImage, uploadedVideo, type Session } from './media.ts';
import { linkedinPageRules, linkedinPageVisibility, linkedinRules } from './network.ts';

export interface LinkedInAdapterOptions extends OAuthAdapterOptions {
  /** LINKEDIN_VERSION */
  version: string;
  /** LINKEDIN_PRODUCTS: what the app may ask for (products.ts); `share` where unset, as the setting's default. */
  products?: LinkedInProducts;
  /** When the worker should look again at a video or images LinkedIn is processing. */
  videoCheckAfterMs?: number;
}

interface Post {
  id?: string;
  commentary?: string;
  content?: { media?: { id?: string }; multiImage?: { images?: { id?: string }[] } };
}

interface ShareStatistics {
  elements?: { totalShareStatistics?: Record<string, number | undefined> }[];
}

const isPage = (account: ConnectedAccount) => account.remoteId?.startsWith('urn:li:organization:') === true;

export class LinkedInAdapter extends OAuthAdapter implements ProviderAdapter {
  readonly #api: LinkedInApi;
  readonly #videoCheckAfterMs: number;

  constructor(options: LinkedInAdapterOptions) {
    const api = new LinkedInApi({ ...apiOptions(options), version: options.version });
    // LinkedIn has no revocation endpoint for these tokens (its profile names none), and the member's pages share them.
    super({ rules: linkedinRules, duplicates: 'look-up' }, linkOf(linkedinProfile(api, options.products ?? 'share'), options));
    this.#api = api;
    this.#videoCheckAfterMs = options.videoCheckAfterMs ?? 5000;
  }

  /** A page's narrower settings (no CONNECTIONS); a member has the catalog's. */
  async rulesFor(account: ConnectedAccount): Promise<AccountRules | null> {
    return isPage(account) ? linkedinPageRules : null;
  }

  /** A page's visibilities for the settings form; a member's are the schema's. */
  async settingOptions(account: ConnectedAccount): Promise<SettingOptions> {
    return isPage(account) ? { visibility: linkedinPageVisibility } : {};
  }

  async publish(request: PublishRequest): Promise<PublishOutcome> {
    const session = this.#session(request.account, request.signal);
    const steps = new Steps(request.checkpoint);
    const content: Record<string, unknown> = {};
    const video = request.media.find((media) => media.kind === 'video');
    if (video) {
      const urn = await uploadedVideo(steps, session, video, 'video');
      if (!urn) return { status: 'processing', handle: 'video', checkAfterMs: this.#videoCheckAfterMs };
      content.media = { id: urn };
    } else if (request.media.length) {
      const images: { id: string; altText?: string }[] = [];
      for (const [index, media] of request.media.entries()) {
        const id = await steps.once(`image:${index}`, () => uploadImage(session, media));
        images.push({ id, ...(media.altText ? { altText: media.altText } : {}) });
      }
      if (
        !(await imagesAvailable(
          steps,
          session,
          images.map((image) => image.id),
        ))
      )
        return { status: 'processing', handle: 'images', checkAfterMs: this.#videoCheckAfterMs };
      if (images.length === 1) content.media = images[0];
      else content.multiImage = { images };
    }
    const { visibility = 'PUBLIC' } = request.settings as { visibility?: string };
    const post = {
      author: session.author,
      commentary: littleText(request.caption),
      visibility,
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: false,
      ...(Object.keys(content).length ? { content } : {}),
    };
    const urn = await steps.once('post', () => this.#post(session, post), { ifInterrupted: () => this.#earlierPost(session, post) });
    const firstComment = await postFirstComment(
      steps,
      request.firstComment,
      (text) => this.#comment(session, urn, text),
      (text) => this.#earlierComment(session, urn, text),
    );
    return { status: 'published', item: { ...published(urn), ...(firstComment ? { firstComment } : {}) } };
  }

  async metrics(account: ConnectedAccount, remoteId: string): Promise<ItemMetrics> {
    const session = this.#session(account);
    if (!session.author.startsWith('urn:li:organization:')) return {};
    const kind = remoteId.startsWith('urn:li:ugcPost:') ? 'ugcPosts' : 'shares';
    const { body } = await this.#api.send<ShareStatistics>({
      method: 'GET',
      path: `/rest/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=${restliUrn(session.author)}&${kind}=List(${restliUrn(remoteId)})`,
      accessToken: session.accessToken,
    });
    const totals = body.elements?.[0]?.totalShareStatistics ?? {};
    return {
      impressions: totals.impressionCount,
      reach: totals.uniqueImpressionsCount,
      clicks: totals.clickCount,
      likes: totals.likeCount,
      comments: totals.commentCount,
      shares: totals.shareCount,
    };
  }

  #session(account: ConnectedAccount, signal?: AbortSignal): Session {
    return sessionOf(this.#api, account, signal);
  }

  async #post(session: Session, post: Record<string, unknown>): Promise<string> {
    const { headers } = await this.#api.send({
      method: 'POST',
      path: '/rest/posts',
      accessToken: session.accessToken,
      body: { json: post },
      signal: session.signal,
    });
    const urn = headers['x-restli-id'];
    if (typeof urn !== 'string' || !urn.startsWith('urn:li:'))
      throw new ProviderError('PROVIDER_UNAVAILABLE', 'LinkedIn took the post without naming it (x-restli-id).', false);
    return urn;
  }

  /** A comment on the post `urn` by its author: the comment's URN and the post's page opened at it. */
  async #comment(session: Session, urn: string, text: string): Promise<PublishedItem> {
    return commentItem(urn, await postComment(session, { object: urn, text }));
  }

  /** The comment an interrupted attempt made on the post, among its comments: the author's, with the same text. */
  async #earlierComment(session: Session, urn: string, text: string): Promise<PublishedItem | null> {
    const found = await lookUp(
      () => ownComment(session, urn, text),
      (reason) =>
        `An earlier attempt may have posted the first comment, and LinkedIn does not let this app read the post's comments to check (${reason}). Look at the post and comment there if it is missing.`,
    );
    return found ? commentItem(urn, found) : null;
  }

  /** The post an interrupted attempt created, among the author's latest: the same commentary and media. */
  async #earlierPost(session: Session, post: { commentary: string; content?: Post['content'] }): Promise<string | null> {
    const { elements } = await lookUp(
      async () =>
        (
          await this.#api.send<{ elements?: Post[] }>({
            method: 'GET',
            path: `/rest/posts?author=${restliUrn(session.author)}&q=author&count=10&sortBy=LAST_MODIFIED`,
            accessToken: session.accessToken,
            signal: session.signal,
          })
        ).body,
      (reason) =>
        `An earlier attempt may have posted, and LinkedIn does not let this app read the author's posts to check (${reason}). Look at the profile and publish again if the post is not there.`,
    );
    const found = (elements ?? []).find((candidate) => candidate.commentary === post.commentary && mediaIds(candidate.content) === mediaIds(post.content));
    return found?.id ?? null;
  }
}

const mediaIds = (content: Post['content']) => [content?.media?.id, ...(content?.multiImage?.images ?? []).map((image) => image.id)].filter(Boolean).join(',');

const published = (urn: string): PublishedItem => ({ remoteId: urn, remoteUrl: `https://www.linkedin.com/feed/update/${urn}/` });
const commentItem = (urn: string, commentUrn: string): PublishedItem => ({ remoteId: commentUrn, remoteUrl: commentUrl(urn, commentUrn) });

export function createLinkedInAdapter({ app, redirectUri, config, allowedHosts }: OAuthAdapterDependencies): LinkedInAdapter {
  return new LinkedInAdapter({
    app,
    redirectUri,
    version: config.linkedinVersion,
    products: config.linkedinProducts,
    timeoutMs: config.networkTimeoutMs,
    allowedHosts,
  });
}

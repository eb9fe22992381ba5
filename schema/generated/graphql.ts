export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** ISO 8601 UTC timestamp with milliseconds. */
  DateTime: { input: string; output: string; }
  /** Any JSON value, as REST carries it (e.g. a target’s `settings`); checked by the domain like the REST body. */
  JSON: { input: unknown; output: unknown; }
};

/** Where the person authorizes the app at the network; the network then sends them to /oauth/callback/<provider>. */
export type AccountAuthorization = {
  __typename?: 'AccountAuthorization';
  /** The start link on this service (/oauth/start/<provider>): open it in the browser of the person who authorizes. It opens once, gives that browser a cookie binding the authorization to it (httpOnly, SameSite=Lax, 10 minutes) and redirects to the network; the callback refuses a browser without it (error=invalid_request). Started in the dashboard, it opens only in that signed-in session’s browser; started with an API key, it first shows its visitor a page naming the workspace and who asked, and goes on to the network only when they continue. */
  authorizationUrl: Scalars['String']['output'];
  expiresAt: Scalars['String']['output'];
  /** Single-use; valid for 10 minutes. */
  state: Scalars['String']['output'];
};

/** What one account may choose for one setting of its network, read from the network. */
export type AccountSettingOption = {
  __typename?: 'AccountSettingOption';
  /** The values allowed, in the network’s order; null where the setting’s schema alone says. */
  choices?: Maybe<Array<SettingChoice>>;
  /** What a target that leaves the setting out gets. */
  default?: Maybe<Scalars['JSON']['output']>;
  /** The setting, as named in the network’s `settings`. */
  name: Scalars['String']['output'];
  /** Why the account cannot use the setting; it stays at `default`. */
  unavailable?: Maybe<Scalars['String']['output']>;
};

/** What POST /ai/captions does: rewrite (with a tone), translate, or suggest hashtags. */
export type AiCaptionAction =
  /** REST: `hashtags` */
  | 'HASHTAGS'
  /** REST: `rewrite` */
  | 'REWRITE'
  /** REST: `translate` */
  | 'TRANSLATE';

/** How caption suggestions come: as posts, or each rewrite also cut into the parts of a thread (REST `format`). */
export type AiCaptionFormat =
  /** REST: `post` */
  | 'POST'
  /** REST: `thread` */
  | 'THREAD';

/** Credits each AI action costs, charged only when it succeeds. */
export type AiCosts = {
  __typename?: 'AiCosts';
  altText: Scalars['Int']['output'];
  caption: Scalars['Int']['output'];
  hashtags: Scalars['Int']['output'];
  image: Scalars['Int']['output'];
  translate: Scalars['Int']['output'];
};

/** The workspace’s AI credits this month. */
export type AiCredits = {
  __typename?: 'AiCredits';
  /** Credits each month (the plan’s, unless the operator set another amount). */
  monthly: Scalars['Int']['output'];
  /** Left this month. */
  remaining: Scalars['Int']['output'];
  /** When the month’s credits start again (UTC). */
  resetsAt: Scalars['String']['output'];
};

export type AiStatus = {
  __typename?: 'AiStatus';
  available: Scalars['Boolean']['output'];
  costs: AiCosts;
  credits: AiCredits;
  /** `openai`, `sandbox` (offline, deterministic), or null when AI is not configured. */
  provider?: Maybe<Scalars['String']['output']>;
};

export type AltTextSuggestion = {
  __typename?: 'AltTextSuggestion';
  altText: Scalars['String']['output'];
  creditsRemaining: Scalars['Int']['output'];
  creditsUsed: Scalars['Int']['output'];
};

/** How analytics rows are grouped. Each value is REST's, in upper case with `_` for punctuation. */
export type AnalyticsGrouping =
  | 'ACCOUNT'
  | 'DAY'
  | 'POST'
  | 'PROVIDER';

export type AnalyticsResult = {
  __typename?: 'AnalyticsResult';
  from: Scalars['String']['output'];
  groupBy: AnalyticsGrouping;
  rows: Array<AnalyticsRow>;
  to: Scalars['String']['output'];
  totals: Metrics;
};

export type AnalyticsRow = {
  __typename?: 'AnalyticsRow';
  /** The group: a day (YYYY-MM-DD), a network as its `Provider` value, an account id or a post id. */
  key: Scalars['String']['output'];
  metrics: Metrics;
  /** The post of a row by post (needs posts:read); null in other groupings and for a post since deleted. */
  post?: Maybe<Post>;
};

/** An API key of the workspace. The key itself is only ever shown once, by createApiKey. */
export type ApiKey = {
  __typename?: 'ApiKey';
  createdAt: Scalars['DateTime']['output'];
  /** The person the key acts for. */
  createdById: Scalars['ID']['output'];
  expiresAt?: Maybe<Scalars['DateTime']['output']>;
  id: Scalars['ID']['output'];
  name?: Maybe<Scalars['String']['output']>;
  /** The key’s first characters, to recognize it. */
  prefix: Scalars['String']['output'];
  revokedAt?: Maybe<Scalars['DateTime']['output']>;
  scopes: Array<Scope>;
};

/** An MCP client asking to act for the caller: what the consent page shows. */
export type AppAuthorization = {
  __typename?: 'AppAuthorization';
  clientName?: Maybe<Scalars['String']['output']>;
  expiresAt: Scalars['DateTime']['output'];
  id: Scalars['ID']['output'];
  /** Where the answer goes: the host the person should recognize. */
  redirectHost: Scalars['String']['output'];
  requestedScopes: Array<Scope>;
};

export type AppAuthorizationDecision = {
  __typename?: 'AppAuthorizationDecision';
  /** Where to send the browser: the client’s redirect URI with the code, or with access_denied. */
  redirectTo: Scalars['String']['output'];
};

export type CaptionRules = {
  __typename?: 'CaptionRules';
  /** Networks that shorten links count each link as this many characters; null: as written. */
  charactersPerUrl?: Maybe<Scalars['Int']['output']>;
  /** characters, graphemes, or weighted (X's count: links 23, CJK and emoji 2) */
  countedIn: Scalars['String']['output'];
  maxHashtags?: Maybe<Scalars['Int']['output']>;
  maxLength: Scalars['Int']['output'];
  /** Where a post with media allows a shorter text (a Telegram caption), the limit then. */
  maxLengthWithMedia?: Maybe<Scalars['Int']['output']>;
  maxLinks?: Maybe<Scalars['Int']['output']>;
  required: Scalars['Boolean']['output'];
};

export type CaptionSuggestions = {
  __typename?: 'CaptionSuggestions';
  creditsRemaining: Scalars['Int']['output'];
  creditsUsed: Scalars['Int']['output'];
  suggestions: Array<Scalars['String']['output']>;
  /** With format THREAD: each suggestion as the parts of a thread. */
  threads?: Maybe<Array<CaptionThread>>;
};

/** A suggestion cut into the parts of a thread, each within the network’s limit. */
export type CaptionThread = {
  __typename?: 'CaptionThread';
  /** In order: the first post, then each reply. */
  parts: Array<Scalars['String']['output']>;
};

export type CommentAuthor = {
  __typename?: 'CommentAuthor';
  email?: Maybe<Scalars['String']['output']>;
  name?: Maybe<Scalars['String']['output']>;
  userId?: Maybe<Scalars['ID']['output']>;
};

/** A team comment, or a review decision with its comment. */
export type CommentKind =
  | 'APPROVED'
  | 'CHANGES_REQUESTED'
  | 'COMMENT';

/** An MCP client (Claude, ChatGPT, the MCP Inspector) the caller signed in with OAuth in this workspace; it acts as a key of theirs would. */
export type ConnectedApp = {
  __typename?: 'ConnectedApp';
  /** The name the client registered with (RFC 7591 client_name). */
  clientName?: Maybe<Scalars['String']['output']>;
  createdAt: Scalars['DateTime']['output'];
  id: Scalars['ID']['output'];
  /** Its last call of /mcp, to the minute. */
  lastUsedAt?: Maybe<Scalars['DateTime']['output']>;
  /** The host the client’s sign-in returned to. */
  redirectHost: Scalars['String']['output'];
  scopes: Array<Scope>;
};

/** How an OAuth connection ended, for the person who started it: the `outcome` the callback adds to its redirect names it. The dashboard shows this, never text from its address. */
export type ConnectionOutcome = {
  __typename?: 'ConnectionOutcome';
  /** The accounts connected (one per account); empty when none was. */
  connectionIds: Array<Scalars['ID']['output']>;
  createdAt: Scalars['DateTime']['output'];
  /** Why none was: the RFC 6749 error code (or ours, in lower case); null when connected. */
  error?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  /** Why none was, in the request’s language; null when connected. */
  message?: Maybe<Scalars['String']['output']>;
  provider: Provider;
};

export type CreatedApiKey = {
  __typename?: 'CreatedApiKey';
  /** The full key, shown this once: only a hash of it is kept. */
  apiKey: Scalars['String']['output'];
  key: ApiKey;
};

/** A new review link; its URL is shown only in this answer. */
export type CreatedReviewLink = {
  __typename?: 'CreatedReviewLink';
  expiresAt: Scalars['DateTime']['output'];
  id: Scalars['ID']['output'];
  url: Scalars['String']['output'];
};

/** One thing a person types to connect an account of a credential network (Bluesky, Telegram). */
export type CredentialField = {
  __typename?: 'CredentialField';
  /** `text`, or `url` (an address of the person’s server). */
  format: Scalars['String']['output'];
  /** Where a person finds the value. */
  help: Scalars['String']['output'];
  label: Scalars['String']['output'];
  maxLength: Scalars['Int']['output'];
  /** Its key in `credentials` (addSocialAccount). */
  name: Scalars['String']['output'];
  /** The regular expression the whole value must match. */
  pattern?: Maybe<Scalars['String']['output']>;
  required: Scalars['Boolean']['output'];
  /** Kept sealed, never shown again: a password input. */
  secret: Scalars['Boolean']['output'];
};

/** A webhook delivery: pending (first or next attempt due), succeeded, or failed for good. Each value is REST's, in upper case with `_` for punctuation. */
export type DeliveryStatus =
  | 'FAILED'
  | 'PENDING'
  | 'SUCCEEDED';

export type DurationRules = {
  __typename?: 'DurationRules';
  maxDurationMs: Scalars['Int']['output'];
  minDurationMs: Scalars['Int']['output'];
};

/** A webhook event kind. Each value is REST's, in upper case with `_` for punctuation. */
export type EventKind =
  | 'AI_CREDITS_LOW'
  | 'CONNECTION_CONNECTED'
  | 'CONNECTION_REVOKED'
  | 'MEDIA_FAILED'
  | 'MEDIA_READY'
  | 'POST_DELETED'
  | 'POST_FAILED'
  | 'POST_PARTIALLY_PUBLISHED'
  | 'POST_PUBLISHED'
  | 'POST_SCHEDULED'
  | 'TARGET_FAILED'
  | 'TARGET_PUBLISHED'
  | 'WEBHOOK_TEST';

/** An RSS 2.0 or Atom feed whose new items become posts (REST: /v1/feeds). */
export type Feed = {
  __typename?: 'Feed';
  connectionIds: Array<Scalars['ID']['output']>;
  consecutiveFailures: Scalars['Int']['output'];
  createdAt: Scalars['DateTime']['output'];
  id: Scalars['ID']['output'];
  lastError?: Maybe<FeedError>;
  lastPolledAt?: Maybe<Scalars['DateTime']['output']>;
  mode: FeedMode;
  nextPollAt: Scalars['DateTime']['output'];
  placement?: Maybe<Scalars['String']['output']>;
  queueId?: Maybe<Scalars['ID']['output']>;
  status: FeedStatus;
  template: Scalars['String']['output'];
  url: Scalars['String']['output'];
};

/** Why a feed’s last poll failed (REST’s `lastError`), in English like a network’s reason. */
export type FeedError = {
  __typename?: 'FeedError';
  at: Scalars['String']['output'];
  code: Scalars['String']['output'];
  message: Scalars['String']['output'];
};

/** What a feed’s new items become: drafts, or posts in a queue’s next slot. Each value is REST's, in upper case with `_` for punctuation. */
export type FeedMode =
  | 'DRAFT'
  | 'QUEUE';

/** A feed before its first poll, polling, or failing since its last poll. Each value is REST's, in upper case with `_` for punctuation. */
export type FeedStatus =
  | 'ACTIVE'
  | 'FAILING'
  | 'NEW';

export type FileRules = {
  __typename?: 'FileRules';
  formats: Array<Scalars['String']['output']>;
  maxBytes: Scalars['Float']['output'];
  maxDurationMs?: Maybe<Scalars['Int']['output']>;
  maxPixels?: Maybe<Scalars['Int']['output']>;
  maxWidth?: Maybe<Scalars['Int']['output']>;
  minDurationMs?: Maybe<Scalars['Int']['output']>;
  minWidth?: Maybe<Scalars['Int']['output']>;
};

/** The first comment (`settings.firstComment`): posted, or refused by the network (the post stays published). */
export type FirstComment = {
  __typename?: 'FirstComment';
  error?: Maybe<TargetError>;
  remoteId?: Maybe<Scalars['String']['output']>;
  remoteUrl?: Maybe<Scalars['String']['output']>;
};

export type InboxAuthor = {
  __typename?: 'InboxAuthor';
  avatarUrl?: Maybe<Scalars['String']['output']>;
  displayName: Scalars['String']['output'];
  username: Scalars['String']['output'];
};

/** A comment, reply or mention someone left on a published post, collected from its network. */
export type InboxItem = {
  __typename?: 'InboxItem';
  author: InboxAuthor;
  connectionId: Scalars['ID']['output'];
  /** When the person wrote it. */
  createdAt: Scalars['DateTime']['output'];
  id: Scalars['ID']['output'];
  kind: InboxKind;
  /** The post it is on (its thumbnail, networks and accounts). */
  post?: Maybe<Post>;
  postId: Scalars['ID']['output'];
  provider: Provider;
  remoteUrl?: Maybe<Scalars['String']['output']>;
  /** Answers given from here, oldest first. */
  replies: Array<InboxReply>;
  status: InboxStatus;
  targetId: Scalars['ID']['output'];
  text: Scalars['String']['output'];
};

/** What an inbox item is: a comment on the post, a reply to a comment under it, or a mention. Each value is REST's, in upper case with `_` for punctuation. */
export type InboxKind =
  | 'COMMENT'
  | 'MENTION'
  | 'REPLY';

/** An answer to an inbox item, posted once as the account. */
export type InboxReply = {
  __typename?: 'InboxReply';
  createdAt: Scalars['DateTime']['output'];
  error?: Maybe<InboxReplyError>;
  id: Scalars['ID']['output'];
  publishedAt?: Maybe<Scalars['DateTime']['output']>;
  remoteUrl?: Maybe<Scalars['String']['output']>;
  status: InboxReplyStatus;
  text: Scalars['String']['output'];
  userId?: Maybe<Scalars['ID']['output']>;
};

export type InboxReplyError = {
  __typename?: 'InboxReplyError';
  code: Scalars['String']['output'];
  /** The network's reason. */
  message: Scalars['String']['output'];
};

/** An answer to an inbox item: pending, being posted, published or failed. Each value is REST's, in upper case with `_` for punctuation. */
export type InboxReplyStatus =
  | 'FAILED'
  | 'PENDING'
  | 'PUBLISHED'
  | 'PUBLISHING';

/** An inbox item: open until someone marks it done. Each value is REST's, in upper case with `_` for punctuation. */
export type InboxStatus =
  | 'DONE'
  | 'OPEN';

/** Links in captions as published: UTM parameters added (kept where a link has them), and short links that count clicks. */
export type LinkSetting = {
  __typename?: 'LinkSetting';
  shorten: Scalars['Boolean']['output'];
  utm: Utm;
};

export type MediaCountRules = {
  __typename?: 'MediaCountRules';
  kinds: Array<Scalars['String']['output']>;
  max: Scalars['Int']['output'];
  maxVideos: Scalars['Int']['output'];
  min: Scalars['Int']['output'];
  mixedKinds: Scalars['Boolean']['output'];
};

export type MediaError = {
  __typename?: 'MediaError';
  code: Scalars['String']['output'];
  message: Scalars['String']['output'];
};

/** A file of the media library. */
export type MediaFile = {
  __typename?: 'MediaFile';
  altText?: Maybe<Scalars['String']['output']>;
  codecs: Array<Scalars['String']['output']>;
  createdAt: Scalars['DateTime']['output'];
  durationMs?: Maybe<Scalars['Int']['output']>;
  error?: Maybe<MediaError>;
  filename: Scalars['String']['output'];
  format?: Maybe<Scalars['String']['output']>;
  height?: Maybe<Scalars['Int']['output']>;
  id: Scalars['ID']['output'];
  mimeType?: Maybe<Scalars['String']['output']>;
  /** Bytes. */
  size: Scalars['Float']['output'];
  status: MediaStatus;
  thumbnailUrl?: Maybe<Scalars['String']['output']>;
  type?: Maybe<MediaType>;
  /** Signed, expiring URL of the file, once it is ready. */
  url?: Maybe<Scalars['String']['output']>;
  /** The posts whose content names this file, newest first (needs posts:read). */
  usedBy: Array<Post>;
  width?: Maybe<Scalars['Int']['output']>;
};

/** A media file: uploading, processing after the upload completed, ready, or failed. Each value is REST's, in upper case with `_` for punctuation. */
export type MediaStatus =
  | 'FAILED'
  | 'PROCESSING'
  | 'READY'
  | 'UPLOADING';

/** The kind of a media file, known once it is checked. Each value is REST's, in upper case with `_` for punctuation. */
export type MediaType =
  | 'GIF'
  | 'IMAGE'
  | 'VIDEO';

/** A person of the workspace and their role. */
export type Member = {
  __typename?: 'Member';
  email: Scalars['String']['output'];
  joinedAt: Scalars['DateTime']['output'];
  name?: Maybe<Scalars['String']['output']>;
  role: Role;
  userId: Scalars['ID']['output'];
};

export type Metrics = {
  __typename?: 'Metrics';
  clicks: Scalars['Float']['output'];
  comments: Scalars['Float']['output'];
  impressions: Scalars['Float']['output'];
  likes: Scalars['Float']['output'];
  reach: Scalars['Float']['output'];
  saves: Scalars['Float']['output'];
  shares: Scalars['Float']['output'];
  videoViews: Scalars['Float']['output'];
};

export type Mutation = {
  __typename?: 'Mutation';
  /** Adds a person by email; a password signs a new person in (someone else’s account keeps its own). Only owners add owners. */
  addMember: Member;
  addPostComment: PostComment;
  /** Connects an account of a credential network with the fields its `connection.fields` name (`credentials`: Bluesky identifier, appPassword, service; Telegram botToken, chat; Bluesky’s also as arguments of their own) or a sandbox account (username). */
  addSocialAccount: SocialAccount;
  /** In review → an approved draft (owners and admins). */
  approvePost: Post;
  /** Completes an upload once its bytes are sent; the file is then checked and processed (`PROCESSING`). */
  completeUpload: MediaFile;
  /** A key acting for the caller, with a preset or scopes (never more than the caller holds); on a plan with API access. */
  createApiKey: CreatedApiKey;
  createFeed: Feed;
  createPost: Post;
  createQueue: Queue;
  createReviewLink: CreatedReviewLink;
  createWebhook: WebhookEndpoint;
  /** Allows (with a preset or scopes, never more than the caller’s role holds, on a plan with API access) or denies an MCP client for the caller in this workspace. */
  decideAppAuthorization: AppAuthorizationDecision;
  deleteFeed: Scalars['Boolean']['output'];
  deleteMedia: Scalars['Boolean']['output'];
  deletePost: Scalars['Boolean']['output'];
  /** Deletes the queue; answers how many of its posts stay scheduled at their times. */
  deleteQueue: Scalars['Int']['output'];
  deleteWebhook: Scalars['Boolean']['output'];
  /** Disconnects one of the caller’s apps: its tokens are refused from now on. Answers the apps left. */
  disconnectApp: Array<ConnectedApp>;
  /** Disconnects the account: REVOKED, tokens erased (and revoked at the network where it offers that), history kept. */
  disconnectSocialAccount: SocialAccount;
  /** A new draft with the content, targets and campaign of post `id` (in any state), checked as createPost checks. */
  duplicatePost: Post;
  /** Starts generating an image; answers the id of the media file, ready like an upload (REST: POST /v1/ai/images). */
  generateImage: Scalars['ID']['output'];
  publishPost: Post;
  queuePost: Post;
  /** Removes a person; the keys they created stop working. Only owners remove owners; a workspace keeps one owner. */
  removeMember: Member;
  replayWebhookDelivery: WebhookDelivery;
  /** Answers the comment as the account (REST POST /v1/inbox/{id}/replies): checked first, then posted once by a job. */
  replyToInboxItem: InboxReply;
  /** In review → changes requested, saying what to change (owners and admins). */
  requestPostChanges: Post;
  retryPost: Post;
  /** Revokes a key of the workspace; calls with it answer UNAUTHENTICATED from now on. */
  revokeApiKey: ApiKey;
  revokeReviewLink: Scalars['Boolean']['output'];
  rotateWebhookSecret: WebhookEndpoint;
  schedulePost: Post;
  setAltText: MediaFile;
  /** Replaces the workspace default (REST PUT /workspace/links); posts written before keep theirs. */
  setLinkDefaults: LinkSetting;
  /** Changes a person’s role; only owners grant or take the owner role, and a workspace keeps one owner. */
  setMemberRole: Member;
  /** Connects an OAuth network account (owners and admins; keys need accounts:write). */
  startAccountConnection: AccountAuthorization;
  /** Starts an upload (POST /v1/media/uploads): the bytes go to the URL answered, not through the graph. */
  startUpload: Upload;
  /** Draft or changes requested → in review (REST POST /v1/posts/{id}/submit). */
  submitPost: Post;
  /** Alt text for a ready image, not saved (REST: POST /v1/media/{id}/alt-text/suggestion). */
  suggestAltText: AltTextSuggestion;
  /** Caption rewrites, a translation or hashtags, not saved (REST: POST /v1/ai/captions). */
  suggestCaptions: CaptionSuggestions;
  /** Queues a webhook.test delivery to this endpoint; answers the delivery id. */
  testWebhook: Scalars['ID']['output'];
  /** Changes the feed; `placement` or `queueId` given as null clears it. */
  updateFeed: Feed;
  updateInboxItem: InboxItem;
  updatePost: Post;
  updateQueue: QueueChange;
  updateWebhook: WebhookEndpoint;
  updateWorkspace: Workspace;
  /** Adds a file to the library from a URL (https, public hosts; streamed, up to the upload size limit) or from base64 bytes (at most 20 MB decoded), then processes it like an upload. Waits up to `waitSeconds` for processing to end. */
  uploadMedia: MediaFile;
};


export type MutationAddMemberArgs = {
  email: Scalars['String']['input'];
  password?: InputMaybe<Scalars['String']['input']>;
  role: Role;
};


export type MutationAddPostCommentArgs = {
  postId: Scalars['ID']['input'];
  text: Scalars['String']['input'];
};


export type MutationAddSocialAccountArgs = {
  appPassword?: InputMaybe<Scalars['String']['input']>;
  credentials?: InputMaybe<Scalars['JSON']['input']>;
  displayName?: InputMaybe<Scalars['String']['input']>;
  identifier?: InputMaybe<Scalars['String']['input']>;
  provider: Provider;
  service?: InputMaybe<Scalars['String']['input']>;
  username?: InputMaybe<Scalars['String']['input']>;
};


export type MutationApprovePostArgs = {
  comment?: InputMaybe<Scalars['String']['input']>;
  id: Scalars['ID']['input'];
};


export type MutationCompleteUploadArgs = {
  id: Scalars['ID']['input'];
};


export type MutationCreateApiKeyArgs = {
  expiresAt?: InputMaybe<Scalars['DateTime']['input']>;
  name?: InputMaybe<Scalars['String']['input']>;
  preset?: InputMaybe<ScopePreset>;
  scopes?: InputMaybe<Array<Scope>>;
};


export type MutationCreateFeedArgs = {
  connectionIds: Array<Scalars['ID']['input']>;
  mode: FeedMode;
  placement?: InputMaybe<Scalars['String']['input']>;
  queueId?: InputMaybe<Scalars['ID']['input']>;
  template?: InputMaybe<Scalars['String']['input']>;
  url: Scalars['String']['input'];
};


export type MutationCreatePostArgs = {
  campaign?: InputMaybe<Scalars['String']['input']>;
  content: PostContentInput;
  targets: Array<TargetInput>;
};


export type MutationCreateQueueArgs = {
  connectionIds?: InputMaybe<Array<Scalars['ID']['input']>>;
  name: Scalars['String']['input'];
  slots: Array<SlotInput>;
  timezone: Scalars['String']['input'];
};


export type MutationCreateReviewLinkArgs = {
  expiresInHours?: InputMaybe<Scalars['Int']['input']>;
  postId: Scalars['ID']['input'];
};


export type MutationCreateWebhookArgs = {
  description?: InputMaybe<Scalars['String']['input']>;
  events?: InputMaybe<Array<EventKind>>;
  url: Scalars['String']['input'];
};


export type MutationDecideAppAuthorizationArgs = {
  allow: Scalars['Boolean']['input'];
  id: Scalars['ID']['input'];
  preset?: InputMaybe<ScopePreset>;
  scopes?: InputMaybe<Array<Scope>>;
};


export type MutationDeleteFeedArgs = {
  id: Scalars['ID']['input'];
};


export type MutationDeleteMediaArgs = {
  id: Scalars['ID']['input'];
};


export type MutationDeletePostArgs = {
  id: Scalars['ID']['input'];
};


export type MutationDeleteQueueArgs = {
  id: Scalars['ID']['input'];
};


export type MutationDeleteWebhookArgs = {
  id: Scalars['ID']['input'];
};


export type MutationDisconnectAppArgs = {
  id: Scalars['ID']['input'];
};


export type MutationDisconnectSocialAccountArgs = {
  id: Scalars['ID']['input'];
};


export type MutationDuplicatePostArgs = {
  id: Scalars['ID']['input'];
};


export type MutationGenerateImageArgs = {
  prompt: Scalars['String']['input'];
  size?: InputMaybe<Scalars['String']['input']>;
};


export type MutationPublishPostArgs = {
  id: Scalars['ID']['input'];
};


export type MutationQueuePostArgs = {
  id: Scalars['ID']['input'];
  queueId: Scalars['ID']['input'];
};


export type MutationRemoveMemberArgs = {
  userId: Scalars['ID']['input'];
};


export type MutationReplayWebhookDeliveryArgs = {
  deliveryId: Scalars['ID']['input'];
  endpointId: Scalars['ID']['input'];
};


export type MutationReplyToInboxItemArgs = {
  id: Scalars['ID']['input'];
  text: Scalars['String']['input'];
};


export type MutationRequestPostChangesArgs = {
  comment: Scalars['String']['input'];
  id: Scalars['ID']['input'];
};


export type MutationRetryPostArgs = {
  id: Scalars['ID']['input'];
  targetId?: InputMaybe<Scalars['ID']['input']>;
};


export type MutationRevokeApiKeyArgs = {
  id: Scalars['ID']['input'];
};


export type MutationRevokeReviewLinkArgs = {
  id: Scalars['ID']['input'];
  postId: Scalars['ID']['input'];
};


export type MutationRotateWebhookSecretArgs = {
  id: Scalars['ID']['input'];
};


export type MutationSchedulePostArgs = {
  id: Scalars['ID']['input'];
  scheduledAt: Scalars['DateTime']['input'];
  timezone: Scalars['String']['input'];
};


export type MutationSetAltTextArgs = {
  altText?: InputMaybe<Scalars['String']['input']>;
  id: Scalars['ID']['input'];
};


export type MutationSetLinkDefaultsArgs = {
  shorten?: InputMaybe<Scalars['Boolean']['input']>;
  utm?: InputMaybe<UtmInput>;
};


export type MutationSetMemberRoleArgs = {
  role: Role;
  userId: Scalars['ID']['input'];
};


export type MutationStartAccountConnectionArgs = {
  instanceUrl?: InputMaybe<Scalars['String']['input']>;
  method?: InputMaybe<Scalars['String']['input']>;
  provider: Provider;
  redirectUri?: InputMaybe<Scalars['String']['input']>;
};


export type MutationStartUploadArgs = {
  contentType: Scalars['String']['input'];
  filename: Scalars['String']['input'];
  size: Scalars['Float']['input'];
};


export type MutationSubmitPostArgs = {
  id: Scalars['ID']['input'];
};


export type MutationSuggestAltTextArgs = {
  language?: InputMaybe<Scalars['String']['input']>;
  mediaId: Scalars['ID']['input'];
};


export type MutationSuggestCaptionsArgs = {
  action: AiCaptionAction;
  caption: Scalars['String']['input'];
  count?: InputMaybe<Scalars['Int']['input']>;
  format?: InputMaybe<AiCaptionFormat>;
  provider?: InputMaybe<Provider>;
  targetLanguage?: InputMaybe<Scalars['String']['input']>;
  tone?: InputMaybe<Scalars['String']['input']>;
};


export type MutationTestWebhookArgs = {
  id: Scalars['ID']['input'];
};


export type MutationUpdateFeedArgs = {
  connectionIds?: InputMaybe<Array<Scalars['ID']['input']>>;
  id: Scalars['ID']['input'];
  mode?: InputMaybe<FeedMode>;
  placement?: InputMaybe<Scalars['String']['input']>;
  queueId?: InputMaybe<Scalars['ID']['input']>;
  template?: InputMaybe<Scalars['String']['input']>;
  url?: InputMaybe<Scalars['String']['input']>;
};


export type MutationUpdateInboxItemArgs = {
  id: Scalars['ID']['input'];
  status: InboxStatus;
};


export type MutationUpdatePostArgs = {
  campaign?: InputMaybe<Scalars['String']['input']>;
  content?: InputMaybe<PostContentInput>;
  id: Scalars['ID']['input'];
  targets?: InputMaybe<Array<TargetInput>>;
  version: Scalars['Int']['input'];
};


export type MutationUpdateQueueArgs = {
  connectionIds?: InputMaybe<Array<Scalars['ID']['input']>>;
  id: Scalars['ID']['input'];
  name?: InputMaybe<Scalars['String']['input']>;
  slots?: InputMaybe<Array<SlotInput>>;
  timezone?: InputMaybe<Scalars['String']['input']>;
};


export type MutationUpdateWebhookArgs = {
  description?: InputMaybe<Scalars['String']['input']>;
  enabled?: InputMaybe<Scalars['Boolean']['input']>;
  events?: InputMaybe<Array<EventKind>>;
  id: Scalars['ID']['input'];
  url?: InputMaybe<Scalars['String']['input']>;
};


export type MutationUpdateWorkspaceArgs = {
  approvalRequired?: InputMaybe<Scalars['Boolean']['input']>;
};


export type MutationUploadMediaArgs = {
  base64?: InputMaybe<Scalars['String']['input']>;
  contentType?: InputMaybe<Scalars['String']['input']>;
  filename?: InputMaybe<Scalars['String']['input']>;
  url?: InputMaybe<Scalars['String']['input']>;
  waitSeconds?: InputMaybe<Scalars['Int']['input']>;
};

export type PageInfo = {
  __typename?: 'PageInfo';
  endCursor?: Maybe<Scalars['String']['output']>;
  hasNextPage: Scalars['Boolean']['output'];
  hasPreviousPage: Scalars['Boolean']['output'];
  startCursor?: Maybe<Scalars['String']['output']>;
};

export type Person = {
  __typename?: 'Person';
  email: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  name?: Maybe<Scalars['String']['output']>;
  workspaces: Array<WorkspaceMembership>;
};

/** Where on a network a target goes; which placements a network offers: `providers`. Each value is REST's, in upper case with `_` for punctuation. */
export type Placement =
  | 'EVENT'
  | 'FEED'
  | 'LINK'
  | 'OFFER'
  | 'PHOTO'
  | 'PIN'
  | 'REEL'
  | 'SHORT'
  | 'STORY'
  | 'TEXT'
  | 'UPDATE'
  | 'VIDEO';

export type PlacementRules = {
  __typename?: 'PlacementRules';
  /** Allowed width/height ratio, inclusive. */
  aspectRatio?: Maybe<Range>;
  caption: CaptionRules;
  description: Scalars['String']['output'];
  media: MediaCountRules;
  name: Scalars['String']['output'];
  /** Whether the placement takes threads (`content.thread`); null: a thread is refused here. */
  thread?: Maybe<ThreadRules>;
  video?: Maybe<DurationRules>;
};

/** The workspace’s plan in force and what it includes. */
export type Plan = {
  __typename?: 'Plan';
  /** Whether AI features are included. */
  ai: Scalars['Boolean']['output'];
  /** Whether API keys work (and can be created). */
  apiAccess: Scalars['Boolean']['output'];
  expiresAt?: Maybe<Scalars['DateTime']['output']>;
  maxSocialAccounts: Scalars['Int']['output'];
  /** AI credits a month by default on this plan. */
  monthlyAiCredits: Scalars['Int']['output'];
  /** free, pro or business. */
  name: Scalars['String']['output'];
};

/** A post: created once, published to one or more targets. */
export type Post = {
  __typename?: 'Post';
  /** What its state and review allow the caller now (UPDATE, DELETE, SCHEDULE, QUEUE, PUBLISH, RETRY, SUBMIT, APPROVE, REQUEST_CHANGES); anything else is refused. */
  actions: Array<PostAction>;
  campaign?: Maybe<Scalars['String']['output']>;
  /** The team’s comments and the review decisions, newest first. */
  comments: PostCommentsConnection;
  content: PostContent;
  createdAt: Scalars['DateTime']['output'];
  id: Scalars['ID']['output'];
  /** The files of `content.mediaIds`, in that order. */
  media: Array<MediaFile>;
  /** The open comments people left on the published post (the inbox), newest first, at most 25. */
  openComments: Array<InboxItem>;
  /** The networks of its targets, each once, in the targets’ order: what a list of posts shows of them. */
  providers: Array<Provider>;
  publishedAt?: Maybe<Scalars['DateTime']['output']>;
  queueId?: Maybe<Scalars['ID']['output']>;
  /** Its review; null when it was never submitted nor approved. */
  review?: Maybe<Review>;
  /** Its review links, newest first (owners and admins). */
  reviewLinks: PostReviewLinksConnection;
  scheduledAt?: Maybe<Scalars['DateTime']['output']>;
  status: PostStatus;
  targets: Array<PostTarget>;
  /** The thumbnail of its first media file (signed, expiring), if it has one: what a list of posts shows of its media. */
  thumbnailUrl?: Maybe<Scalars['String']['output']>;
  timezone?: Maybe<Scalars['String']['output']>;
  updatedAt: Scalars['DateTime']['output'];
  /** Sent back with updatePost for optimistic concurrency. */
  version: Scalars['Int']['output'];
};


/** A post: created once, published to one or more targets. */
export type PostCommentsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};


/** A post: created once, published to one or more targets. */
export type PostReviewLinksArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};

/** Something a post’s state and review allow: update, delete, schedule, queue, publish, retry, submit, approve or request changes. Each value is REST's, in upper case with `_` for punctuation. */
export type PostAction =
  | 'APPROVE'
  | 'DELETE'
  | 'PUBLISH'
  | 'QUEUE'
  | 'REQUEST_CHANGES'
  | 'RETRY'
  | 'SCHEDULE'
  | 'SUBMIT'
  | 'UPDATE';

export type PostComment = {
  __typename?: 'PostComment';
  author: CommentAuthor;
  createdAt: Scalars['DateTime']['output'];
  id: Scalars['ID']['output'];
  kind: CommentKind;
  text: Scalars['String']['output'];
};

export type PostCommentsConnection = {
  __typename?: 'PostCommentsConnection';
  edges: Array<PostCommentsConnectionEdge>;
  pageInfo: PageInfo;
};

export type PostCommentsConnectionEdge = {
  __typename?: 'PostCommentsConnectionEdge';
  cursor: Scalars['String']['output'];
  node: PostComment;
};

export type PostContent = {
  __typename?: 'PostContent';
  caption: Scalars['String']['output'];
  mediaIds: Array<Scalars['ID']['output']>;
  /** The parts after the first post, each a reply to the one before (networks whose placements have `thread`). */
  thread: Array<ThreadPart>;
};

export type PostContentInput = {
  caption?: InputMaybe<Scalars['String']['input']>;
  mediaIds?: InputMaybe<Array<Scalars['ID']['input']>>;
  /** At most 25 parts after the first post, each published as a reply to the one before. */
  thread?: InputMaybe<Array<ThreadPartInput>>;
};

export type PostReviewLinksConnection = {
  __typename?: 'PostReviewLinksConnection';
  edges: Array<PostReviewLinksConnectionEdge>;
  pageInfo: PageInfo;
};

export type PostReviewLinksConnectionEdge = {
  __typename?: 'PostReviewLinksConnectionEdge';
  cursor: Scalars['String']['output'];
  node: ReviewLink;
};

/** Where a post is in its life: draft (in review or changes requested where approval is required), scheduled, publishing, then published, partially published or failed. Each value is REST's, in upper case with `_` for punctuation. */
export type PostStatus =
  | 'CHANGES_REQUESTED'
  | 'DRAFT'
  | 'FAILED'
  | 'IN_REVIEW'
  | 'PARTIALLY_PUBLISHED'
  | 'PUBLISHED'
  | 'PUBLISHING'
  | 'SCHEDULED';

/** One account and placement a post goes to. */
export type PostTarget = {
  __typename?: 'PostTarget';
  /** The account (connection) this target publishes to. */
  account: SocialAccount;
  attempts: Scalars['Int']['output'];
  /** The caption this target publishes: its override, else the post’s. */
  caption: Scalars['String']['output'];
  connectionId: Scalars['ID']['output'];
  error?: Maybe<TargetError>;
  firstComment?: Maybe<FirstComment>;
  id: Scalars['ID']['output'];
  override?: Maybe<TargetOverride>;
  /** A thread’s parts at the network, the first included, in order; kept when a later part fails. [] without a thread. */
  parts: Array<PublishedPart>;
  placement: Placement;
  provider: Provider;
  publishedAt?: Maybe<Scalars['DateTime']['output']>;
  remoteId?: Maybe<Scalars['String']['output']>;
  remoteUrl?: Maybe<Scalars['String']['output']>;
  /** The network’s options for this target, defaults applied. */
  settings: Scalars['JSON']['output'];
  status: TargetStatus;
  /** The content checked against the network’s rules as they stand now. */
  validation: TargetValidation;
  /** Why the target waits (which quota or rate limit). */
  waitingReason?: Maybe<Scalars['String']['output']>;
  /** When a waiting target goes out: a quota of the network is used up, or the network asked to be called again then. */
  waitingUntil?: Maybe<Scalars['DateTime']['output']>;
};

export type PostValidation = {
  __typename?: 'PostValidation';
  targets: Array<TargetFindings>;
  /** True when no target has a finding: createPost would accept the post. */
  valid: Scalars['Boolean']['output'];
};

/** A social network (GET /v1/providers); `SANDBOX` is the built-in test network. Each value is REST's, in upper case with `_` for punctuation. */
export type Provider =
  | 'BLUESKY'
  | 'FACEBOOK'
  | 'GOOGLE_BUSINESS'
  | 'INSTAGRAM'
  | 'LINKEDIN'
  | 'MASTODON'
  | 'PINTEREST'
  | 'REDDIT'
  | 'SANDBOX'
  | 'TELEGRAM'
  | 'THREADS'
  | 'TIKTOK'
  | 'X'
  | 'YOUTUBE';

/** How accounts of a network are connected on this installation. */
export type ProviderConnection = {
  __typename?: 'ProviderConnection';
  /** A credential network’s fields; empty for the others. */
  fields: Array<CredentialField>;
  /** `oauth2` (startAccountConnection), `credentials` or `local` (addSocialAccount). */
  method: Scalars['String']['output'];
};

/** A network’s formats, placements and limits, as GET /v1/providers returns them. */
export type ProviderRules = {
  __typename?: 'ProviderRules';
  altTextMaxLength?: Maybe<Scalars['Int']['output']>;
  /** Whether accounts of this network can be connected on this installation. */
  configured: Scalars['Boolean']['output'];
  /** How accounts are connected here, and a credential network’s fields; null when not configured. */
  connection?: Maybe<ProviderConnection>;
  /** The ways of connecting set up here where the network offers several (Instagram: facebook_login, instagram_login), the default first; empty for the others. */
  connectionMethods: Array<Scalars['String']['output']>;
  displayName: Scalars['String']['output'];
  gif?: Maybe<FileRules>;
  image: FileRules;
  notes: Array<Scalars['String']['output']>;
  placements: Array<PlacementRules>;
  postingLimits: Array<Scalars['String']['output']>;
  provider: Provider;
  /** Whether this service publishes to the network: every network it names does (kept for clients that read it). */
  publishing: Scalars['Boolean']['output'];
  /** The operator’s settings its connection needs (its app at the network: `X_CLIENT_ID`, `X_CLIENT_SECRET`); empty where none. */
  requiredSettings: Array<Scalars['String']['output']>;
  /** The network’s `targets[].settings` as a JSON Schema (2020-12) with defaults. */
  settings: Scalars['JSON']['output'];
  video?: Maybe<FileRules>;
};

export type PublishedPart = {
  __typename?: 'PublishedPart';
  remoteId: Scalars['String']['output'];
  remoteUrl?: Maybe<Scalars['String']['output']>;
};

export type Query = {
  __typename?: 'Query';
  ai: AiStatus;
  analytics: AnalyticsResult;
  /** Every key of the workspace, revoked ones included, newest first. */
  apiKeys: Array<ApiKey>;
  /** A pending authorization request of an MCP client (the id in the consent page’s address); NOT_FOUND once decided or expired. */
  appAuthorization: AppAuthorization;
  /** The caller’s connected apps in this workspace that still work, newest first. */
  connectedApps: Array<ConnectedApp>;
  /** How the OAuth connection named by the callback’s `outcome` ended; null unless the caller started it in this workspace (kept a day). */
  connectionOutcome?: Maybe<ConnectionOutcome>;
  feed: Feed;
  feeds: QueryFeedsConnection;
  /** Comments on the workspace’s published posts, newest first (REST GET /v1/inbox). */
  inbox: QueryInboxConnection;
  /** How many inbox items are open (the sidebar’s unread count). */
  inboxOpenCount: Scalars['Int']['output'];
  /** The `links` setting a target gets when it is written without one (REST GET /workspace/links). */
  linkDefaults: LinkSetting;
  media: QueryMediaConnection;
  mediaFile: MediaFile;
  /** The people of the workspace, in the order they joined. */
  members: Array<Member>;
  post: Post;
  posts: QueryPostsConnection;
  providers: Array<ProviderRules>;
  queues: QueryQueuesConnection;
  /** Calls recorded for this workspace, newest first. Owners and admins only. */
  requestLog: QueryRequestLogConnection;
  socialAccount: SocialAccount;
  socialAccounts: QuerySocialAccountsConnection;
  /** The dry run of createPost (REST POST /v1/posts/validate): the same checks, nothing saved. */
  validatePost: PostValidation;
  viewer: Viewer;
  webhookDeliveries: QueryWebhookDeliveriesConnection;
  webhooks: QueryWebhooksConnection;
  /** The workspace’s settings. */
  workspace: Workspace;
};


export type QueryAnalyticsArgs = {
  campaign?: InputMaybe<Scalars['String']['input']>;
  connectionId?: InputMaybe<Scalars['ID']['input']>;
  from: Scalars['String']['input'];
  groupBy?: InputMaybe<AnalyticsGrouping>;
  provider?: InputMaybe<Provider>;
  status?: InputMaybe<Array<PostStatus>>;
  to: Scalars['String']['input'];
};


export type QueryAppAuthorizationArgs = {
  id: Scalars['ID']['input'];
};


export type QueryConnectionOutcomeArgs = {
  id: Scalars['ID']['input'];
};


export type QueryFeedArgs = {
  id: Scalars['ID']['input'];
};


export type QueryFeedsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryInboxArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  connectionId?: InputMaybe<Scalars['ID']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  postId?: InputMaybe<Scalars['ID']['input']>;
  provider?: InputMaybe<Provider>;
  status?: InputMaybe<InboxStatus>;
};


export type QueryMediaArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  from?: InputMaybe<Scalars['DateTime']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  q?: InputMaybe<Scalars['String']['input']>;
  status?: InputMaybe<MediaStatus>;
  to?: InputMaybe<Scalars['DateTime']['input']>;
  type?: InputMaybe<MediaType>;
};


export type QueryMediaFileArgs = {
  id: Scalars['ID']['input'];
};


export type QueryPostArgs = {
  id: Scalars['ID']['input'];
};


export type QueryPostsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  campaign?: InputMaybe<Scalars['String']['input']>;
  connectionId?: InputMaybe<Scalars['ID']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  from?: InputMaybe<Scalars['DateTime']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  provider?: InputMaybe<Provider>;
  status?: InputMaybe<Array<PostStatus>>;
  to?: InputMaybe<Scalars['DateTime']['input']>;
};


export type QueryQueuesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryRequestLogArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};


export type QuerySocialAccountArgs = {
  id: Scalars['ID']['input'];
};


export type QuerySocialAccountsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryValidatePostArgs = {
  campaign?: InputMaybe<Scalars['String']['input']>;
  content: PostContentInput;
  targets: Array<TargetInput>;
};


export type QueryWebhookDeliveriesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  endpointId: Scalars['ID']['input'];
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryWebhooksArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};

export type QueryFeedsConnection = {
  __typename?: 'QueryFeedsConnection';
  edges: Array<QueryFeedsConnectionEdge>;
  pageInfo: PageInfo;
};

export type QueryFeedsConnectionEdge = {
  __typename?: 'QueryFeedsConnectionEdge';
  cursor: Scalars['String']['output'];
  node: Feed;
};

export type QueryInboxConnection = {
  __typename?: 'QueryInboxConnection';
  edges: Array<QueryInboxConnectionEdge>;
  pageInfo: PageInfo;
};

export type QueryInboxConnectionEdge = {
  __typename?: 'QueryInboxConnectionEdge';
  cursor: Scalars['String']['output'];
  node: InboxItem;
};

export type QueryMediaConnection = {
  __typename?: 'QueryMediaConnection';
  edges: Array<QueryMediaConnectionEdge>;
  pageInfo: PageInfo;
};

export type QueryMediaConnectionEdge = {
  __typename?: 'QueryMediaConnectionEdge';
  cursor: Scalars['String']['output'];
  node: MediaFile;
};

export type QueryPostsConnection = {
  __typename?: 'QueryPostsConnection';
  edges: Array<QueryPostsConnectionEdge>;
  pageInfo: PageInfo;
};

export type QueryPostsConnectionEdge = {
  __typename?: 'QueryPostsConnectionEdge';
  cursor: Scalars['String']['output'];
  node: Post;
};

export type QueryQueuesConnection = {
  __typename?: 'QueryQueuesConnection';
  edges: Array<QueryQueuesConnectionEdge>;
  pageInfo: PageInfo;
};

export type QueryQueuesConnectionEdge = {
  __typename?: 'QueryQueuesConnectionEdge';
  cursor: Scalars['String']['output'];
  node: Queue;
};

export type QueryRequestLogConnection = {
  __typename?: 'QueryRequestLogConnection';
  edges: Array<QueryRequestLogConnectionEdge>;
  pageInfo: PageInfo;
};

export type QueryRequestLogConnectionEdge = {
  __typename?: 'QueryRequestLogConnectionEdge';
  cursor: Scalars['String']['output'];
  node: RequestLogEntry;
};

export type QuerySocialAccountsConnection = {
  __typename?: 'QuerySocialAccountsConnection';
  edges: Array<QuerySocialAccountsConnectionEdge>;
  pageInfo: PageInfo;
};

export type QuerySocialAccountsConnectionEdge = {
  __typename?: 'QuerySocialAccountsConnectionEdge';
  cursor: Scalars['String']['output'];
  node: SocialAccount;
};

export type QueryWebhookDeliveriesConnection = {
  __typename?: 'QueryWebhookDeliveriesConnection';
  edges: Array<QueryWebhookDeliveriesConnectionEdge>;
  pageInfo: PageInfo;
};

export type QueryWebhookDeliveriesConnectionEdge = {
  __typename?: 'QueryWebhookDeliveriesConnectionEdge';
  cursor: Scalars['String']['output'];
  node: WebhookDelivery;
};

export type QueryWebhooksConnection = {
  __typename?: 'QueryWebhooksConnection';
  edges: Array<QueryWebhooksConnectionEdge>;
  pageInfo: PageInfo;
};

export type QueryWebhooksConnectionEdge = {
  __typename?: 'QueryWebhooksConnectionEdge';
  cursor: Scalars['String']['output'];
  node: WebhookEndpoint;
};

export type Queue = {
  __typename?: 'Queue';
  connectionIds: Array<Scalars['ID']['output']>;
  createdAt: Scalars['DateTime']['output'];
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  /** The posts placed in this queue still to be published, soonest first. */
  posts: Array<Post>;
  slots: Array<Slot>;
  timezone: Scalars['String']['output'];
};

export type QueueChange = {
  __typename?: 'QueueChange';
  /** Posts whose slot is gone, still scheduled at their time. */
  keptScheduledPosts: Scalars['Int']['output'];
  queue: Queue;
};

export type Range = {
  __typename?: 'Range';
  max: Scalars['Float']['output'];
  min: Scalars['Float']['output'];
};

/** One recorded call of the workspace. */
export type RequestLogEntry = {
  __typename?: 'RequestLogEntry';
  apiKeyId?: Maybe<Scalars['ID']['output']>;
  createdAt: Scalars['DateTime']['output'];
  durationMs: Scalars['Float']['output'];
  id: Scalars['ID']['output'];
  method: Scalars['String']['output'];
  requestId: Scalars['String']['output'];
  /** Route template, e.g. /v1/social-accounts or POST /graphql. */
  route: Scalars['String']['output'];
  status: Scalars['Int']['output'];
  userId?: Maybe<Scalars['ID']['output']>;
};

/** The tus 1.0 protocol, for large files: create the upload at `endpoint` with these headers and metadata. */
export type ResumableUpload = {
  __typename?: 'ResumableUpload';
  /** Bytes per PATCH suggested. */
  chunkSize: Scalars['Float']['output'];
  endpoint: Scalars['String']['output'];
  headers: Scalars['JSON']['output'];
  metadata: Scalars['JSON']['output'];
  protocol: Scalars['String']['output'];
  version: Scalars['String']['output'];
};

export type Review = {
  __typename?: 'Review';
  decidedAt?: Maybe<Scalars['DateTime']['output']>;
  decidedBy?: Maybe<ReviewDecider>;
  /** The user id of the member who submitted the post. */
  requestedBy?: Maybe<Scalars['ID']['output']>;
  state: ReviewState;
};

/** A member (userId), or a client through a review link (the name they gave). */
export type ReviewDecider = {
  __typename?: 'ReviewDecider';
  name?: Maybe<Scalars['String']['output']>;
  userId?: Maybe<Scalars['ID']['output']>;
};

export type ReviewLink = {
  __typename?: 'ReviewLink';
  createdAt: Scalars['DateTime']['output'];
  expiresAt: Scalars['DateTime']['output'];
  id: Scalars['ID']['output'];
  revokedAt?: Maybe<Scalars['DateTime']['output']>;
};

/** A post’s review: in review, approved, changes requested, or voided by an edit of its content. */
export type ReviewState =
  | 'APPROVED'
  | 'CHANGES_REQUESTED'
  | 'IN_REVIEW'
  | 'VOIDED';

/** A person’s role in a workspace. Each value is REST's, in upper case with `_` for punctuation. */
export type Role =
  | 'ADMIN'
  | 'EDITOR'
  | 'OWNER'
  | 'VIEWER';

/** A permission of an API key. Each value is REST's, in upper case with `_` for punctuation. */
export type Scope =
  | 'ACCESS_WRITE'
  | 'ACCOUNTS_READ'
  | 'ACCOUNTS_WRITE'
  | 'AI_WRITE'
  | 'ANALYTICS_READ'
  | 'MEDIA_READ'
  | 'MEDIA_WRITE'
  | 'POSTS_READ'
  | 'POSTS_WRITE'
  | 'WEBHOOKS_WRITE';

/** A named set of scopes for a new API key. Each value is REST's, in upper case with `_` for punctuation. */
export type ScopePreset =
  | 'PUBLISHING'
  | 'READ_ONLY';

/** One value a setting may take for an account. */
export type SettingChoice = {
  __typename?: 'SettingChoice';
  /** What people see: a board's name, a privacy level's name. */
  label: Scalars['String']['output'];
  value: Scalars['String']['output'];
};

export type Slot = {
  __typename?: 'Slot';
  day: Weekday;
  /** HH:mm, local to the queue. */
  time: Scalars['String']['output'];
};

export type SlotInput = {
  day: Weekday;
  /** HH:mm */
  time: Scalars['String']['input'];
};

/** A connected social account. Its provider tokens are never exposed. */
export type SocialAccount = {
  __typename?: 'SocialAccount';
  avatarUrl?: Maybe<Scalars['String']['output']>;
  connectedAt: Scalars['DateTime']['output'];
  /** How it was connected where its network offers several ways: Instagram’s facebook_login or instagram_login; null for other networks. */
  connectionMethod?: Maybe<Scalars['String']['output']>;
  displayName: Scalars['String']['output'];
  /** Passed as `connectionId` when creating a post for this account. */
  id: Scalars['ID']['output'];
  needsReconnect: Scalars['Boolean']['output'];
  provider: Provider;
  /** What this account may choose for its network’s settings, read from the network now (Pinterest’s boards, TikTok’s privacy levels and switches); empty for networks without per-account choices. As REST GET /social-accounts/{id}/setting-options. */
  settingOptions?: Maybe<Array<AccountSettingOption>>;
  /** ACTIVE, NEEDS_RECONNECT (the network no longer accepts its tokens) or REVOKED (disconnected). */
  status: Scalars['String']['output'];
  username: Scalars['String']['output'];
};

export type TargetError = {
  __typename?: 'TargetError';
  code: Scalars['String']['output'];
  message: Scalars['String']['output'];
};

/** What creating the post would refuse for one target; the same `field`, `code`, `message` as the error’s `details`. */
export type TargetFindings = {
  __typename?: 'TargetFindings';
  connectionId: Scalars['ID']['output'];
  findings: Array<ValidationFinding>;
  /** The target’s place in `targets`. */
  index: Scalars['Int']['output'];
  placement: Placement;
};

export type TargetInput = {
  /** The id of a social account (`socialAccounts`). */
  connectionId: Scalars['ID']['input'];
  override?: InputMaybe<TargetOverrideInput>;
  placement: Placement;
  /** The network’s options (`providers`); its defaults fill what is left out. */
  settings?: InputMaybe<Scalars['JSON']['input']>;
};

/** What a target publishes instead of the post’s content. */
export type TargetOverride = {
  __typename?: 'TargetOverride';
  caption?: Maybe<Scalars['String']['output']>;
  /** Replaces the post’s thread for this target; [] drops it. */
  thread?: Maybe<Array<ThreadPart>>;
};

export type TargetOverrideInput = {
  caption?: InputMaybe<Scalars['String']['input']>;
  /** Replaces the post’s thread for this target; [] drops it. */
  thread?: InputMaybe<Array<ThreadPartInput>>;
};

/** Where one target (account and placement) of a post is. Each value is REST's, in upper case with `_` for punctuation. */
export type TargetStatus =
  | 'FAILED'
  | 'PENDING'
  | 'PUBLISHED'
  | 'PUBLISHING';

export type TargetValidation = {
  __typename?: 'TargetValidation';
  problems: Array<ValidationFinding>;
  valid: Scalars['Boolean']['output'];
};

/** A part of a thread: published as a reply to the part before it. */
export type ThreadPart = {
  __typename?: 'ThreadPart';
  caption: Scalars['String']['output'];
  mediaIds: Array<Scalars['ID']['output']>;
};

export type ThreadPartInput = {
  caption?: InputMaybe<Scalars['String']['input']>;
  mediaIds?: InputMaybe<Array<Scalars['ID']['input']>>;
};

export type ThreadRules = {
  __typename?: 'ThreadRules';
  /** The most parts that may follow the first post. */
  maxParts: Scalars['Int']['output'];
};

/** Where to send a file: one request of `method` to `uploadUrl` with `headers` and the whole file as its body (with MEDIA_STORAGE=s3 a presigned URL of the bucket, which binds the type and length); or, when `parts` is given, its parts there; then completeUpload. */
export type Upload = {
  __typename?: 'Upload';
  expiresAt: Scalars['String']['output'];
  headers: Scalars['JSON']['output'];
  /** The media file’s id, also the upload’s. */
  id: Scalars['ID']['output'];
  maxBytes: Scalars['Float']['output'];
  method: Scalars['String']['output'];
  parts?: Maybe<UploadParts>;
  resumable: ResumableUpload;
  uploadUrl: Scalars['String']['output'];
};

/** One part of a file sent in parts: bytes `bytes`, from `(partNumber - 1) × partBytes`, in one request of `method` to `url` with `headers`. */
export type UploadPart = {
  __typename?: 'UploadPart';
  bytes: Scalars['Float']['output'];
  headers: Scalars['JSON']['output'];
  method: Scalars['String']['output'];
  partNumber: Scalars['Int']['output'];
  url: Scalars['String']['output'];
};

/** The bucket’s presigned part URLs, for a file past its single-request limit: send every part (in any order, again if one fails), then completeUpload. The bytes never pass through this service. */
export type UploadParts = {
  __typename?: 'UploadParts';
  /** Bytes of every part but the last. */
  partBytes: Scalars['Float']['output'];
  parts: Array<UploadPart>;
};

export type Utm = {
  __typename?: 'Utm';
  campaign?: Maybe<Scalars['String']['output']>;
  medium?: Maybe<Scalars['String']['output']>;
  source?: Maybe<Scalars['String']['output']>;
};

export type UtmInput = {
  campaign?: InputMaybe<Scalars['String']['input']>;
  medium?: InputMaybe<Scalars['String']['input']>;
  source?: InputMaybe<Scalars['String']['input']>;
};

/** A rule of the target’s network that the content breaks; the same fields as an error’s `details`. */
export type ValidationFinding = {
  __typename?: 'ValidationFinding';
  /** The broken rule, e.g. caption.maxLength. */
  code: Scalars['String']['output'];
  field: Scalars['String']['output'];
  message: Scalars['String']['output'];
};

/** The caller: a person of one workspace, through an API key or a dashboard session. */
export type Viewer = {
  __typename?: 'Viewer';
  aiCredits: AiCredits;
  /** The key of this call; null for a dashboard session. */
  apiKeyId?: Maybe<Scalars['ID']['output']>;
  /** Who the caller is, and every workspace they belong to. */
  person: Person;
  /** The plan in force; null when none is (then most calls answer ENTITLEMENT_EXCEEDED). */
  plan?: Maybe<Plan>;
  role: Role;
  /** Effective scopes: the key’s own, capped by its creator’s role. */
  scopes: Array<Scope>;
  userId: Scalars['ID']['output'];
  workspaceId: Scalars['ID']['output'];
};

export type WebhookAttempt = {
  __typename?: 'WebhookAttempt';
  attemptedAt: Scalars['String']['output'];
  durationMs: Scalars['Int']['output'];
  error?: Maybe<Scalars['String']['output']>;
  number: Scalars['Int']['output'];
  responseExcerpt?: Maybe<Scalars['String']['output']>;
  statusCode?: Maybe<Scalars['Int']['output']>;
};

export type WebhookDelivery = {
  __typename?: 'WebhookDelivery';
  attemptLog: Array<WebhookAttempt>;
  attempts: Scalars['Int']['output'];
  endpoint: WebhookEndpoint;
  eventId: Scalars['ID']['output'];
  eventType: EventKind;
  id: Scalars['ID']['output'];
  status: DeliveryStatus;
};

export type WebhookEndpoint = {
  __typename?: 'WebhookEndpoint';
  createdAt: Scalars['String']['output'];
  description?: Maybe<Scalars['String']['output']>;
  enabled: Scalars['Boolean']['output'];
  /** Empty means every kind. */
  events: Array<EventKind>;
  id: Scalars['ID']['output'];
  previousSecretExpiresAt?: Maybe<Scalars['String']['output']>;
  /** Only in the answer of createWebhook and rotateWebhookSecret. */
  secret?: Maybe<Scalars['String']['output']>;
  url: Scalars['String']['output'];
};

/** A day of a queue’s week. Each value is REST's, in upper case with `_` for punctuation. */
export type Weekday =
  | 'FRIDAY'
  | 'MONDAY'
  | 'SATURDAY'
  | 'SUNDAY'
  | 'THURSDAY'
  | 'TUESDAY'
  | 'WEDNESDAY';

export type Workspace = {
  __typename?: 'Workspace';
  /** Whether an editor’s post is approved by an owner or admin before it is scheduled, queued or published. */
  approvalRequired: Scalars['Boolean']['output'];
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
};

/** A workspace the person belongs to, and their role there. */
export type WorkspaceMembership = {
  __typename?: 'WorkspaceMembership';
  /** Sent as x-workspace-id by a signed-in browser. */
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  role: Role;
};

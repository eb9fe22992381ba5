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
};

export type AnalyticsResult = {
  __typename?: 'AnalyticsResult';
  from: Scalars['String']['output'];
  groupBy: Scalars['String']['output'];
  rows: Array<AnalyticsRow>;
  to: Scalars['String']['output'];
  totals: Metrics;
};

export type AnalyticsRow = {
  __typename?: 'AnalyticsRow';
  key: Scalars['String']['output'];
  metrics: Metrics;
};

export type CaptionRules = {
  __typename?: 'CaptionRules';
  /** characters or graphemes */
  countedIn: Scalars['String']['output'];
  maxHashtags?: Maybe<Scalars['Int']['output']>;
  maxLength: Scalars['Int']['output'];
  maxLinks?: Maybe<Scalars['Int']['output']>;
  required: Scalars['Boolean']['output'];
};

export type DurationRules = {
  __typename?: 'DurationRules';
  maxDurationMs: Scalars['Int']['output'];
  minDurationMs: Scalars['Int']['output'];
};

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
  size: Scalars['Float']['output'];
  status: Scalars['String']['output'];
  thumbnailUrl?: Maybe<Scalars['String']['output']>;
  type?: Maybe<Scalars['String']['output']>;
  /** Signed, expiring URL of the file. */
  url?: Maybe<Scalars['String']['output']>;
  width?: Maybe<Scalars['Int']['output']>;
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
  /** Uploads start with POST /v1/media/uploads (the bytes go to a URL, not through the graph). */
  completeUpload: MediaFile;
  createPost: Post;
  createQueue: Queue;
  createWebhook: WebhookEndpoint;
  deleteMedia: Scalars['Boolean']['output'];
  deletePost: Scalars['Boolean']['output'];
  /** Deletes the queue; answers how many of its posts stay scheduled at their times. */
  deleteQueue: Scalars['Int']['output'];
  deleteWebhook: Scalars['Boolean']['output'];
  publishPost: Post;
  queuePost: Post;
  replayWebhookDelivery: WebhookDelivery;
  retryPost: Post;
  rotateWebhookSecret: WebhookEndpoint;
  schedulePost: Post;
  setAltText: MediaFile;
  /** Queues a webhook.test delivery to this endpoint; answers the delivery id. */
  testWebhook: Scalars['ID']['output'];
  updatePost: Post;
  updateQueue: QueueChange;
  updateWebhook: WebhookEndpoint;
};


export type MutationCompleteUploadArgs = {
  id: Scalars['ID']['input'];
};


export type MutationCreatePostArgs = {
  campaign?: InputMaybe<Scalars['String']['input']>;
  caption?: InputMaybe<Scalars['String']['input']>;
  mediaIds?: InputMaybe<Array<Scalars['ID']['input']>>;
  targets: Array<TargetInput>;
};


export type MutationCreateQueueArgs = {
  connectionIds?: InputMaybe<Array<Scalars['ID']['input']>>;
  name: Scalars['String']['input'];
  slots: Array<SlotInput>;
  timezone: Scalars['String']['input'];
};


export type MutationCreateWebhookArgs = {
  description?: InputMaybe<Scalars['String']['input']>;
  events?: InputMaybe<Array<Scalars['String']['input']>>;
  url: Scalars['String']['input'];
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


export type MutationPublishPostArgs = {
  id: Scalars['ID']['input'];
};


export type MutationQueuePostArgs = {
  id: Scalars['ID']['input'];
  queueId: Scalars['ID']['input'];
};


export type MutationReplayWebhookDeliveryArgs = {
  deliveryId: Scalars['ID']['input'];
  endpointId: Scalars['ID']['input'];
};


export type MutationRetryPostArgs = {
  id: Scalars['ID']['input'];
  targetId?: InputMaybe<Scalars['ID']['input']>;
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


export type MutationTestWebhookArgs = {
  id: Scalars['ID']['input'];
};


export type MutationUpdatePostArgs = {
  campaign?: InputMaybe<Scalars['String']['input']>;
  caption?: InputMaybe<Scalars['String']['input']>;
  id: Scalars['ID']['input'];
  mediaIds?: InputMaybe<Array<Scalars['ID']['input']>>;
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
  events?: InputMaybe<Array<Scalars['String']['input']>>;
  id: Scalars['ID']['input'];
  url?: InputMaybe<Scalars['String']['input']>;
};

export type PageInfo = {
  __typename?: 'PageInfo';
  endCursor?: Maybe<Scalars['String']['output']>;
  hasNextPage: Scalars['Boolean']['output'];
  hasPreviousPage: Scalars['Boolean']['output'];
  startCursor?: Maybe<Scalars['String']['output']>;
};

export type PlacementRules = {
  __typename?: 'PlacementRules';
  /** Allowed width/height ratio, inclusive. */
  aspectRatio?: Maybe<Range>;
  caption: CaptionRules;
  description: Scalars['String']['output'];
  media: MediaCountRules;
  name: Scalars['String']['output'];
  video?: Maybe<DurationRules>;
};

/** A post: created once, published to one or more targets. */
export type Post = {
  __typename?: 'Post';
  campaign?: Maybe<Scalars['String']['output']>;
  caption: Scalars['String']['output'];
  createdAt: Scalars['DateTime']['output'];
  id: Scalars['ID']['output'];
  mediaIds: Array<Scalars['ID']['output']>;
  publishedAt?: Maybe<Scalars['DateTime']['output']>;
  queueId?: Maybe<Scalars['ID']['output']>;
  scheduledAt?: Maybe<Scalars['DateTime']['output']>;
  status: Scalars['String']['output'];
  targets: Array<PostTarget>;
  timezone?: Maybe<Scalars['String']['output']>;
  updatedAt: Scalars['DateTime']['output'];
  version: Scalars['Int']['output'];
};

/** One account and placement a post goes to. */
export type PostTarget = {
  __typename?: 'PostTarget';
  attempts: Scalars['Int']['output'];
  connectionId: Scalars['ID']['output'];
  error?: Maybe<TargetError>;
  id: Scalars['ID']['output'];
  overrideCaption?: Maybe<Scalars['String']['output']>;
  placement: Scalars['String']['output'];
  provider: Scalars['String']['output'];
  publishedAt?: Maybe<Scalars['DateTime']['output']>;
  remoteId?: Maybe<Scalars['String']['output']>;
  remoteUrl?: Maybe<Scalars['String']['output']>;
  status: Scalars['String']['output'];
  validation: TargetValidation;
};

/** A network’s formats, placements and limits, as GET /v1/providers returns them. */
export type ProviderRules = {
  __typename?: 'ProviderRules';
  altTextMaxLength?: Maybe<Scalars['Int']['output']>;
  displayName: Scalars['String']['output'];
  gif?: Maybe<FileRules>;
  image: FileRules;
  notes: Array<Scalars['String']['output']>;
  placements: Array<PlacementRules>;
  postingLimits: Array<Scalars['String']['output']>;
  provider: Scalars['String']['output'];
  video?: Maybe<FileRules>;
};

export type Query = {
  __typename?: 'Query';
  analytics: AnalyticsResult;
  media: QueryMediaConnection;
  mediaFile: MediaFile;
  post: Post;
  posts: QueryPostsConnection;
  providers: Array<ProviderRules>;
  queues: QueryQueuesConnection;
  /** Calls recorded for this workspace, newest first. Owners and admins only. */
  requestLog: QueryRequestLogConnection;
  socialAccount: SocialAccount;
  socialAccounts: QuerySocialAccountsConnection;
  viewer: Viewer;
  webhookDeliveries: QueryWebhookDeliveriesConnection;
  webhooks: QueryWebhooksConnection;
};


export type QueryAnalyticsArgs = {
  campaign?: InputMaybe<Scalars['String']['input']>;
  connectionId?: InputMaybe<Scalars['ID']['input']>;
  from: Scalars['String']['input'];
  groupBy?: InputMaybe<Scalars['String']['input']>;
  provider?: InputMaybe<Scalars['String']['input']>;
  status?: InputMaybe<Array<Scalars['String']['input']>>;
  to: Scalars['String']['input'];
};


export type QueryMediaArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  from?: InputMaybe<Scalars['DateTime']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  q?: InputMaybe<Scalars['String']['input']>;
  status?: InputMaybe<Scalars['String']['input']>;
  to?: InputMaybe<Scalars['DateTime']['input']>;
  type?: InputMaybe<Scalars['String']['input']>;
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
  provider?: InputMaybe<Scalars['String']['input']>;
  status?: InputMaybe<Array<Scalars['String']['input']>>;
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

export type Slot = {
  __typename?: 'Slot';
  day: Scalars['String']['output'];
  /** HH:mm, local to the queue. */
  time: Scalars['String']['output'];
};

export type SlotInput = {
  day: Scalars['String']['input'];
  time: Scalars['String']['input'];
};

/** A connected social account. Its provider tokens are never exposed. */
export type SocialAccount = {
  __typename?: 'SocialAccount';
  avatarUrl?: Maybe<Scalars['String']['output']>;
  connectedAt: Scalars['DateTime']['output'];
  displayName: Scalars['String']['output'];
  /** Passed as `connectionId` when creating a post for this account. */
  id: Scalars['ID']['output'];
  needsReconnect: Scalars['Boolean']['output'];
  provider: Scalars['String']['output'];
  status: Scalars['String']['output'];
  username: Scalars['String']['output'];
};

export type TargetError = {
  __typename?: 'TargetError';
  code: Scalars['String']['output'];
  message: Scalars['String']['output'];
};

export type TargetInput = {
  connectionId: Scalars['ID']['input'];
  overrideCaption?: InputMaybe<Scalars['String']['input']>;
  placement: Scalars['String']['input'];
};

export type TargetValidation = {
  __typename?: 'TargetValidation';
  problems: Array<ValidationProblem>;
  valid: Scalars['Boolean']['output'];
};

export type ValidationProblem = {
  __typename?: 'ValidationProblem';
  field: Scalars['String']['output'];
  message: Scalars['String']['output'];
  rule: Scalars['String']['output'];
};

/** The caller: a person of one workspace, through an API key or a dashboard session. */
export type Viewer = {
  __typename?: 'Viewer';
  apiKeyId?: Maybe<Scalars['ID']['output']>;
  /** The plan in force, if any. */
  plan?: Maybe<Scalars['String']['output']>;
  role: Scalars['String']['output'];
  /** Effective scopes: the key’s own, capped by its creator’s role. */
  scopes: Array<Scalars['String']['output']>;
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
  eventId: Scalars['ID']['output'];
  eventType: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  status: Scalars['String']['output'];
};

export type WebhookEndpoint = {
  __typename?: 'WebhookEndpoint';
  createdAt: Scalars['String']['output'];
  description?: Maybe<Scalars['String']['output']>;
  enabled: Scalars['Boolean']['output'];
  /** Empty means every kind. */
  events: Array<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  previousSecretExpiresAt?: Maybe<Scalars['String']['output']>;
  /** Only in the answer of createWebhook and rotateWebhookSecret. */
  secret?: Maybe<Scalars['String']['output']>;
  url: Scalars['String']['output'];
};

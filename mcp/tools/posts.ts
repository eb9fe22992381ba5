// Tools over accounts, network rules and posts.
import { z } from 'zod';
import { providerNames, providerRules } from '../../src/providers/catalog.ts';
import { postStatuses } from '../../src/posts/states.ts';
import {
  accountFields,
  accountShape,
  counted,
  graphEnum,
  graphEnumOrNull,
  graphTool,
  nextCursor,
  pageInput,
  pageOf,
  pageVariables,
  postFields,
  postListFields,
  postShape,
  reads,
} from '../tool.ts';

const provider = z.enum(providerNames as [string, ...string[]]);
const placement = z.enum([...new Set(providerRules.flatMap((rules) => rules.placements.map((p) => p.name)))] as [string, ...string[]]);
const postId = z.string().describe('A post id (list_posts, create_post).');
const isoTime = z.string().describe('ISO 8601 time with offset, e.g. 2026-12-01T09:30:00+01:00.');

const thread = z
  .array(
    z.object({
      caption: z.string().optional().describe('The part’s text, checked against the network’s caption rules.'),
      mediaIds: z.array(z.string()).optional().describe('Media ids of the part (upload_media, list_media), in order.'),
    }),
  )
  .max(25)
  .describe('Parts after the first post, each published as a reply to the one before (placements with `thread` in get_provider_rules).');
const target = z.object({
  connectionId: z.string().describe('A social account id from list_social_accounts.'),
  placement: placement.describe(
    'Where on the network (required, as in REST: no placement is offered by every network); each network’s placements: get_provider_rules.',
  ),
  settings: z.record(z.string(), z.unknown()).optional().describe('Network options (get_provider_rules); defaults fill the rest.'),
  caption: z.string().optional().describe('A caption for this target only, instead of the post’s.'),
  thread: thread.optional().describe('A thread for this target only, instead of the post’s; [] drops it (networks without threads).'),
  firstComment: z
    .string()
    .optional()
    .describe('Posted by the same account once published: a comment (Facebook, Instagram, LinkedIn, YouTube) or a reply (X, Bluesky, Mastodon, Threads).'),
});
const content = {
  caption: z.string().optional().describe('The text; each network counts its length its own way (get_provider_rules).'),
  mediaIds: z.array(z.string()).optional().describe('Ready media ids (upload_media, list_media), in order.'),
  thread: thread.optional(),
};
const toTargets = (targets: z.infer<typeof target>[]) =>
  targets.map((t) => ({
    connectionId: t.connectionId,
    placement: graphEnum(t.placement),
    settings: t.firstComment === undefined ? t.settings : { ...t.settings, firstComment: t.firstComment },
    override: t.caption === undefined && t.thread === undefined ? undefined : { caption: t.caption, thread: t.thread },
  }));
const contentOf = (args: { caption?: string; mediaIds?: string[]; thread?: z.infer<typeof thread> }) => ({
  caption: args.caption,
  mediaIds: args.mediaIds,
  thread: args.thread,
});

const post = { post: postShape };
const openComment = z.looseObject({
  id: z.string(),
  kind: z.string().describe('comment (on the post), reply (to a comment under it) or mention.'),
  provider: z.string(),
  text: z.string(),
  createdAt: z.string(),
  remoteUrl: z.string().nullable().describe('The comment at its network.'),
  author: z.looseObject({ displayName: z.string(), username: z.string() }),
});
const openCommentFields = 'id kind provider text createdAt remoteUrl author { displayName username }';
// biome-ignore lint/suspicious/noExplicitAny: a GraphQL answer's data is as untyped as the document string that asked for it
const postResult = (field: string) => (data: Record<string, any>) => ({ post: data[field] });
/** get_post's fields: a post's with its latest 25 comments (posts:read, which get_post needs anyway). */
const postWithComments = `${postFields} comments(first: 25) { edges { node { id kind text createdAt author { userId email name } } } }`;
const postSummary = ({ post }: { post: z.infer<typeof postShape> }) =>
  `Post ${post.id} is ${post.status} (version ${post.version}, ${post.targets.length} target${post.targets.length === 1 ? '' : 's'}).`;
const settingOption = z.object({
  name: z.string(),
  choices: z.array(z.object({ value: z.string(), label: z.string() })).nullable(),
  default: z.union([z.string(), z.boolean()]).nullable(),
  unavailable: z.string().nullable(),
  dependsOn: z.array(z.string()),
});
const optionsSummary = (options: z.infer<typeof settingOption>[] | undefined) =>
  options?.length
    ? `; ${options.map((option) => `${option.name} ${option.unavailable ? `unavailable (${option.unavailable})` : option.choices ? counted(option.choices.length, 'choice') : `default ${String(option.default)}`}`).join(', ')}`
    : '';
const write = { readOnlyHint: false, destructiveHint: false, openWorldHint: false } as const;

export const postTools = [
  graphTool({
    name: 'list_social_accounts',
    title: 'List connected social accounts',
    description:
      'Lists the workspace’s connected social accounts, each with its setting options. Each `id` is the `connectionId` a post target needs (create_post, validate_post). Accounts with needsReconnect must be reconnected by a person before posting. ' +
      '`settingOptions` says what the account may choose for its network’s target settings, read from the network now: Pinterest’s boards for boardId, TikTok’s privacy levels for privacyLevel (no default: ask the person which, TikTok requires it chosen per post) and the switches the creator turned off (unavailable, with why), Reddit’s flairs for flairId in the `subreddit` given (dependsOn names what choices depend on); empty for networks without per-account choices. Use a choice’s value in create_post’s target settings.',
    input: {
      ...pageInput,
      settingOptions: z
        .boolean()
        .optional()
        .describe('Read each account’s setting options from its network (default true); false lists the accounts without asking any network.'),
      subreddit: z.string().max(24).optional().describe('Reddit: the subreddit (as in the target’s settings) whose flairs to list as flairId’s choices.'),
    },
    output: { accounts: z.array(accountShape.extend({ settingOptions: z.array(settingOption).optional() })), nextCursor },
    annotations: { ...reads, openWorldHint: true },
    document: `query($first: Int, $after: String, $options: Boolean!, $subreddit: String) { socialAccounts(first: $first, after: $after) { edges { node { ${accountFields}
      settingOptions(subreddit: $subreddit) @include(if: $options) { name choices { value label } default unavailable dependsOn } } } pageInfo { hasNextPage endCursor } } }`,
    variables: (args) => ({ ...pageVariables(args), options: args.settingOptions ?? true, subreddit: args.subreddit ?? null }),
    result: (data) => {
      const page = pageOf<z.infer<typeof accountShape> & { settingOptions?: z.infer<typeof settingOption>[] | null }>(data.socialAccounts);
      const accounts = page.items.map(({ settingOptions, ...account }) =>
        settingOptions === undefined ? account : { ...account, settingOptions: settingOptions ?? [] },
      );
      return { accounts, nextCursor: page.nextCursor };
    },
    summary: ({ accounts, nextCursor }) =>
      `${counted(accounts.length, 'account')}: ${accounts.map((a) => `${a.provider} @${a.username} (${a.id}, ${a.status}${optionsSummary(a.settingOptions)})`).join('; ') || 'none'}${nextCursor ? '; more with cursor' : ''}.`,
  }),
  graphTool({
    name: 'get_provider_rules',
    title: 'Get network rules',
    description:
      'The rules of each network: caption length and how it is counted, media kinds, formats, sizes (bytes), durations (ms), placements and alt-text limits. Read before writing a post; validate_post checks a draft against them.',
    input: { provider: provider.optional().describe('One network; omit for all.') },
    output: { providers: z.array(z.looseObject({ provider: z.string(), displayName: z.string(), publishing: z.boolean(), configured: z.boolean() })) },
    annotations: reads,
    document: `{ providers { provider displayName publishing configured connection { method fields { name label secret format required maxLength pattern help } } altTextMaxLength notes postingLimits
      image { formats maxBytes maxPixels maxWidth minWidth } video { formats maxBytes maxDurationMs minDurationMs } gif { formats maxBytes }
      placements { name description caption { maxLength maxLengthWithMedia countedIn maxHashtags maxLinks required } media { min max maxVideos kinds mixedKinds } video { minDurationMs maxDurationMs } aspectRatio { min max } } } }`,
    variables: () => ({}),
    result: (data, args) => ({
      providers: data.providers.filter((rules: { provider: string }) => !args.provider || rules.provider === args.provider),
    }),
    summary: ({ providers }) => `Rules of ${providers.map((p) => p.provider).join(', ')}.`,
  }),
  graphTool({
    name: 'list_posts',
    title: 'List posts',
    description:
      'Lists posts, newest first, with their targets and per-target status (get_post adds each target’s rule findings). Filters combine; times are ISO 8601.',
    input: {
      ...pageInput,
      status: z.array(z.enum(postStatuses)).optional().describe('Only posts in these states.'),
      provider: provider.optional().describe('Only posts with a target on this network.'),
      connectionId: z.string().optional().describe('Only posts with a target on this account (list_social_accounts).'),
      campaign: z.string().optional().describe('Only posts with this campaign label.'),
      from: isoTime.optional().describe('Posts whose time (published, else scheduled, else created) is at or after this.'),
      to: isoTime.optional().describe('… and before this (exclusive).'),
    },
    output: { posts: z.array(postShape), nextCursor },
    annotations: reads,
    document: `query($first: Int, $after: String, $status: [PostStatus!], $provider: Provider, $connectionId: ID, $campaign: String, $from: DateTime, $to: DateTime) {
      posts(first: $first, after: $after, status: $status, provider: $provider, connectionId: $connectionId, campaign: $campaign, from: $from, to: $to) {
        edges { node { ${postListFields} } } pageInfo { hasNextPage endCursor } } }`,
    variables: (args) => ({
      ...pageVariables(args),
      status: args.status?.map(graphEnum),
      provider: graphEnumOrNull(args.provider),
      connectionId: args.connectionId,
      campaign: args.campaign,
      from: args.from,
      to: args.to,
    }),
    result: (data) => {
      const page = pageOf<z.infer<typeof postShape>>(data.posts);
      return { posts: page.items, nextCursor: page.nextCursor };
    },
    summary: ({ posts, nextCursor }) =>
      `${counted(posts.length, 'post')}: ${posts.map((p) => `${p.id} ${p.status}`).join('; ') || 'none'}${nextCursor ? '; more with cursor' : ''}.`,
  }),
  graphTool({
    name: 'get_post',
    title: 'Get a post',
    description:
      'One post with its content, targets, each target’s status, network URL, error and rule findings, its review state, what you may do with it now (`actions`), the team’s latest comments and review decisions, and the open comments people left on it once published (the inbox, newest first, at most 25).',
    input: { postId },
    output: { post: postShape.extend({ openComments: z.array(openComment).describe('Open comments on the published post, newest first (at most 25).') }) },
    annotations: reads,
    document: `query($id: ID!) { post(id: $id) { ${postWithComments} openComments { ${openCommentFields} } } }`,
    variables: (args) => ({ id: args.postId }),
    // biome-ignore lint/suspicious/noExplicitAny: a GraphQL answer's data is as untyped as the document string that asked for it
    result: (data: Record<string, any>) => {
      const { comments, ...post } = data.post;
      return { post: { ...post, comments: comments.edges.map((edge: { node: unknown }) => edge.node) } };
    },
    summary: (result) =>
      `${postSummary(result)} ${counted(result.post.openComments.length, 'open comment')}${result.post.openComments.length ? `: ${result.post.openComments.map((c) => `${c.author.username}: ${c.text.slice(0, 60)}`).join('; ')}` : ''}.`,
  }),
  graphTool({
    name: 'create_post',
    title: 'Create a draft post',
    description:
      'Creates a draft post for one or more accounts. Nothing is published: then call publish_post, schedule_post or add_post_to_queue. Check a draft first with validate_post. With the same idempotencyKey, a retry answers the first call’s result instead of creating a second post (24 hours).',
    input: {
      ...content,
      targets: z.array(target).min(1).describe('Accounts (list_social_accounts) and placements to publish to.'),
      campaign: z.string().optional().describe('A label to filter posts and analytics by.'),
      idempotencyKey: z.string().min(1).max(255).optional().describe('Any unique string (e.g. a UUID) to make retries safe.'),
    },
    output: post,
    annotations: { ...write, idempotentHint: false },
    document: `mutation($content: PostContentInput!, $targets: [TargetInput!]!, $campaign: String) { createPost(content: $content, targets: $targets, campaign: $campaign) { ${postFields} } }`,
    variables: (args) => ({ content: contentOf(args), targets: toTargets(args.targets), campaign: args.campaign }),
    result: postResult('createPost'),
    summary: postSummary,
    idempotencyKey: (args) => args.idempotencyKey,
  }),
  graphTool({
    name: 'update_post',
    title: 'Change a post',
    description:
      'Changes a draft, in-review, changes-requested, scheduled or failed post. `version` is the post’s current version (get_post); a stale one is refused with CONFLICT. `targets`, when given, replace all targets. Changing the content, targets or media of an approved or in-review post voids its review (`review.state` voided; a draft again).',
    input: {
      postId,
      version: z.number().int().describe('The post’s `version` from get_post or list_posts.'),
      ...content,
      targets: z.array(target).min(1).optional().describe('All targets anew (list_social_accounts); omit to keep them.'),
      campaign: z.string().optional().describe('A label to filter posts and analytics by.'),
    },
    output: post,
    annotations: { ...write, idempotentHint: false },
    document: `mutation($id: ID!, $version: Int!, $content: PostContentInput, $targets: [TargetInput!], $campaign: String) {
      updatePost(id: $id, version: $version, content: $content, targets: $targets, campaign: $campaign) { ${postFields} } }`,
    variables: (args) => ({
      id: args.postId,
      version: args.version,
      content: args.caption === undefined && args.mediaIds === undefined && args.thread === undefined ? undefined : contentOf(args),
      targets: args.targets && toTargets(args.targets),
      campaign: args.campaign,
    }),
    result: postResult('updatePost'),
    summary: postSummary,
  }),
  graphTool({
    name: 'delete_post',
    title: 'Delete a post',
    description: 'Deletes a post from this service (drafts, scheduled, failed and published posts; items already on networks stay there). Cannot be undone.',
    input: { postId },
    output: { deleted: z.boolean(), postId: z.string() },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    document: 'mutation($id: ID!) { deletePost(id: $id) }',
    variables: (args) => ({ id: args.postId }),
    result: (data, args) => ({ deleted: data.deletePost as boolean, postId: args.postId }),
    summary: ({ postId }) => `Post ${postId} deleted.`,
  }),
  graphTool({
    name: 'validate_post',
    title: 'Check a post against network rules',
    description:
      'Checks a post body against every target’s network rules (caption length, media kinds, counts, sizes, durations, alt text) without saving anything; answers the findings per target. The same check create_post runs.',
    input: {
      ...content,
      targets: z.array(target).min(1).describe('Accounts (list_social_accounts) and placements.'),
      campaign: z.string().optional().describe('The campaign label the post would carry.'),
    },
    output: {
      valid: z.boolean(),
      targets: z.array(
        z.looseObject({
          index: z.number(),
          connectionId: z.string(),
          placement: z.string(),
          findings: z.array(z.looseObject({ field: z.string(), code: z.string(), message: z.string() })),
        }),
      ),
    },
    annotations: reads,
    document: `query($content: PostContentInput!, $targets: [TargetInput!]!, $campaign: String) {
      validatePost(content: $content, targets: $targets, campaign: $campaign) { valid targets { index connectionId placement findings { field code message } } } }`,
    variables: (args) => ({ content: contentOf(args), targets: toTargets(args.targets), campaign: args.campaign }),
    result: (data) => data.validatePost,
    summary: ({ valid, targets }) =>
      valid
        ? 'Valid for every target.'
        : `Not valid: ${targets.flatMap((t) => t.findings.map((f) => `target ${t.index} ${f.field}: ${f.message}`)).join('; ')}`,
  }),
  graphTool({
    name: 'publish_post',
    title: 'Publish a post now',
    description:
      'Publishes a draft or scheduled post to all its targets now. Publishing runs in the background: the post answers publishing; follow it with get_post.',
    input: { postId },
    output: post,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    document: `mutation($id: ID!) { publishPost(id: $id) { ${postFields} } }`,
    variables: (args) => ({ id: args.postId }),
    result: postResult('publishPost'),
    summary: postSummary,
  }),
  graphTool({
    name: 'schedule_post',
    title: 'Schedule a post',
    description:
      'Schedules a draft (or reschedules a scheduled post) to publish at a time. `timezone` (IANA, e.g. Europe/Berlin) is kept for display and queues.',
    input: {
      postId,
      scheduledAt: isoTime.describe('When to publish: ISO 8601 with offset, in the future.'),
      timezone: z.string().describe('IANA time zone, e.g. America/New_York.'),
    },
    output: post,
    annotations: { ...write, idempotentHint: true },
    document: `mutation($id: ID!, $at: DateTime!, $timezone: String!) { schedulePost(id: $id, scheduledAt: $at, timezone: $timezone) { ${postFields} } }`,
    variables: (args) => ({ id: args.postId, at: args.scheduledAt, timezone: args.timezone }),
    result: postResult('schedulePost'),
    summary: postSummary,
  }),
  graphTool({
    name: 'add_post_to_queue',
    title: 'Add a post to a queue',
    description: 'Schedules a draft at the next free slot of a queue (list_queues gives queue ids and their slots).',
    input: { postId, queueId: z.string().describe('A queue id from list_queues.') },
    output: post,
    annotations: { ...write, idempotentHint: false },
    document: `mutation($id: ID!, $queueId: ID!) { queuePost(id: $id, queueId: $queueId) { ${postFields} } }`,
    variables: (args) => ({ id: args.postId, queueId: args.queueId }),
    result: postResult('queuePost'),
    summary: postSummary,
  }),
  graphTool({
    name: 'retry_post_target',
    title: 'Retry failed targets',
    description:
      'Publishes again the targets of a failed or partially published post that are not published (or only the one given). Targets already published are never posted twice.',
    input: { postId, targetId: z.string().optional().describe('One target’s id (get_post); omit to retry all unpublished targets.') },
    output: post,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    document: `mutation($id: ID!, $targetId: ID) { retryPost(id: $id, targetId: $targetId) { ${postFields} } }`,
    variables: (args) => ({ id: args.postId, targetId: args.targetId }),
    result: postResult('retryPost'),
    summary: postSummary,
  }),
];

import { getRefFromModel, type PrismaObjectRef } from '@pothos/plugin-prisma';
import { builder } from '../builder.ts';
import type PrismaTypes from '../../src/db/generated/pothos-types.ts';
import { pageRequest, toConnection } from '../connections.ts';
import { defineLoader } from '../loaders.ts';
import { Placement, PostAction, PostStatus, Provider, TargetStatus } from '../enums.ts';
import { MediaFile, mediaLoader } from './media.ts';
import {
  captionOf,
  createPost,
  deletePost,
  duplicatePost,
  getPost,
  listPosts,
  overrideOf,
  postPosition,
  threadMediaOf,
  updatePost,
  type PostDetail,
  type PostInput,
  type PostWithTargets,
} from '../../src/posts/posts.ts';
import { publishPost, retryPost, schedulePost } from '../../src/posts/publishing.ts';
import { allowedActions, reviewContextOf, type ReviewContext } from '../../src/posts/review.ts';
import { validationOf } from '../../src/posts/present.ts';
import { presentValidation, validatePost } from '../../src/posts/dryRun.ts';
import { storedError } from '../../src/errors/appError.ts';
import { postedFirstComment, postedParts, threadOf, threadParts, type PostedFirstComment, type PostedPart, type ThreadPart } from '../../src/posts/threads.ts';
import { mediaFileUrl, postsUsingMedia } from '../../src/media/library.ts';
import { networksOf, postsByIds } from '../../src/posts/summaries.ts';
import type { GraphContext } from '../builder.ts';
import type { Media } from '../../src/db/generated/prisma/client.ts';

type Target = PostWithTargets['targets'][number];

/** The prisma object of socialAccounts.ts, by its model. */
const SocialAccountRef = getRefFromModel('SocialAccount', builder) as PrismaObjectRef<typeof builder.$inferSchemaTypes, PrismaTypes['SocialAccount']>;

/** The post's files in the order of `content.mediaIds`, batched with every other post of the request. */
async function mediaOfPost(post: PostWithTargets | PostDetail, context: GraphContext): Promise<Media[]> {
  if ('media' in post) return post.media;
  return filesOf(post.mediaIds, context);
}

async function filesOf(ids: readonly string[], context: GraphContext): Promise<Media[]> {
  const files = await Promise.all(ids.map((id) => mediaLoader(context).load(id)));
  return files.filter((file): file is Media => file !== undefined);
}

/** The post with the files its checks need: its own, and its threads'. */
async function withFiles(post: PostWithTargets | PostDetail, context: GraphContext): Promise<PostDetail> {
  if ('media' in post) return post;
  const [media, threadMedia] = await Promise.all([mediaOfPost(post, context), filesOf(threadMediaOf(post), context)]);
  return { ...post, media, threadMedia };
}

const TargetError = builder.objectRef<{ code: string; message: string }>('TargetError').implement({
  fields: (t) => ({ code: t.exposeString('code'), message: t.exposeString('message') }),
});

/** One broken rule: the same `field`, `code`, `message` as a detail of an error answer. */
export const ValidationFinding = builder.objectRef<{ code: string; field: string; message: string }>('ValidationFinding').implement({
  description: 'A rule of the target’s network that the content breaks; the same fields as an error’s `details`.',
  fields: (t) => ({
    code: t.exposeString('code', { description: 'The broken rule, e.g. caption.maxLength.' }),
    field: t.exposeString('field'),
    message: t.exposeString('message'),
  }),
});

const TargetValidation = builder.objectRef<ReturnType<typeof validationOf>>('TargetValidation').implement({
  fields: (t) => ({ valid: t.exposeBoolean('valid'), problems: t.expose('problems', { type: [ValidationFinding] }) }),
});

const ThreadPartRef = builder.objectRef<ThreadPart>('ThreadPart').implement({
  description: 'A part of a thread: published as a reply to the part before it.',
  fields: (t) => ({ caption: t.exposeString('caption'), mediaIds: t.exposeIDList('mediaIds') }),
});

const PostContent = builder.objectRef<Pick<PostWithTargets, 'caption' | 'mediaIds' | 'thread'>>('PostContent').implement({
  fields: (t) => ({
    caption: t.exposeString('caption'),
    mediaIds: t.exposeIDList('mediaIds'),
    thread: t.field({
      type: [ThreadPartRef],
      description: 'The parts after the first post, each a reply to the one before (networks whose placements have `thread`).',
      resolve: (post) => threadOf(post, { overrideThread: null }),
    }),
  }),
});

const TargetOverride = builder.objectRef<NonNullable<ReturnType<typeof overrideOf>>>('TargetOverride').implement({
  description: 'What a target publishes instead of the post’s content.',
  fields: (t) => ({
    caption: t.string({ nullable: true, resolve: (override) => override.caption ?? null }),
    thread: t.field({
      type: [ThreadPartRef],
      nullable: true,
      description: 'Replaces the post’s thread for this target; [] drops it.',
      resolve: (override) => (override.thread ? threadParts(override.thread) : null),
    }),
  }),
});

const PublishedPart = builder.objectRef<PostedPart>('PublishedPart').implement({
  fields: (t) => ({ remoteId: t.exposeString('remoteId'), remoteUrl: t.exposeString('remoteUrl', { nullable: true }) }),
});

const FirstComment = builder.objectRef<PostedFirstComment>('FirstComment').implement({
  description: 'The first comment (`settings.firstComment`): posted, or refused by the network (the post stays published).',
  fields: (t) => ({
    remoteId: t.exposeString('remoteId', { nullable: true }),
    remoteUrl: t.exposeString('remoteUrl', { nullable: true }),
    error: t.field({ type: TargetError, nullable: true, resolve: (comment) => comment.error }),
  }),
});

const PostTarget = builder.objectRef<{ post: PostWithTargets | PostDetail; target: Target }>('PostTarget').implement({
  description: 'One account and placement a post goes to.',
  fields: (t) => ({
    id: t.id({ resolve: ({ target }) => target.id }),
    connectionId: t.id({ resolve: ({ target }) => target.connectionId }),
    account: t.field({ type: SocialAccountRef, description: 'The account (connection) this target publishes to.', resolve: ({ target }) => target.account }),
    provider: t.field({ type: Provider, resolve: ({ target }) => target.account.provider as never }),
    placement: t.field({ type: Placement, resolve: ({ target }) => target.placement as never }),
    caption: t.string({
      description: 'The caption this target publishes: its override, else the post’s.',
      resolve: ({ post, target }) => captionOf(post, target),
    }),
    override: t.field({
      type: TargetOverride,
      nullable: true,
      resolve: ({ target }) => overrideOf(target),
    }),
    settings: t.field({ type: 'JSON', description: 'The network’s options for this target, defaults applied.', resolve: ({ target }) => target.settings }),
    status: t.field({ type: TargetStatus, resolve: ({ target }) => target.status as never }),
    remoteId: t.string({ nullable: true, resolve: ({ target }) => target.remoteId }),
    remoteUrl: t.string({ nullable: true, resolve: ({ target }) => target.remoteUrl }),
    parts: t.field({
      type: [PublishedPart],
      description: 'A thread’s parts at the network, the first included, in order; kept when a later part fails. [] without a thread.',
      resolve: ({ target }) => postedParts(target.parts),
    }),
    firstComment: t.field({ type: FirstComment, nullable: true, resolve: ({ target }) => postedFirstComment(target.firstComment) }),
    error: t.field({ type: TargetError, nullable: true, resolve: ({ target }) => storedError(target) }),
    attempts: t.int({ resolve: ({ target }) => target.attempts }),
    publishedAt: t.field({ type: 'DateTime', nullable: true, resolve: ({ target }) => target.publishedAt }),
    waitingUntil: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When a waiting target goes out: a quota of the network is used up, or the network asked to be called again then.',
      resolve: ({ target }) => target.waitingUntil,
    }),
    waitingReason: t.string({
      nullable: true,
      description: 'Why the target waits (which quota or rate limit).',
      resolve: ({ target }) => target.waitingReason,
    }),
    validation: t.field({
      type: TargetValidation,
      description: 'The content checked against the network’s rules as they stand now.',
      resolve: async ({ post, target }, _args, context) => validationOf(await withFiles(post, context), target, context.language),
    }),
  }),
});

export const PostRef = builder.objectRef<PostWithTargets | PostDetail>('Post').implement({
  description: 'A post: created once, published to one or more targets.',
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.field({ type: PostStatus, resolve: (post) => post.status as never }),
    version: t.exposeInt('version', { description: 'Sent back with updatePost for optimistic concurrency.' }),
    actions: t.field({
      type: [PostAction],
      description:
        'What its state and review allow the caller now (UPDATE, DELETE, SCHEDULE, QUEUE, PUBLISH, RETRY, SUBMIT, APPROVE, REQUEST_CHANGES); anything else is refused.',
      resolve: async (post, _args, context) => allowedActions(post, await reviewContext(context)),
    }),
    content: t.field({ type: PostContent, resolve: (post) => post }),
    media: t.field({
      type: [MediaFile],
      description: 'The files of `content.mediaIds`, in that order.',
      resolve: (post, _args, context) => mediaOfPost(post, context),
    }),
    campaign: t.exposeString('campaign', { nullable: true }),
    scheduledAt: t.expose('scheduledAt', { type: 'DateTime', nullable: true }),
    timezone: t.exposeString('timezone', { nullable: true }),
    queueId: t.exposeID('queueId', { nullable: true }),
    publishedAt: t.expose('publishedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    targets: t.field({ type: [PostTarget], resolve: (post) => post.targets.map((target) => ({ post, target })) }),
    providers: t.field({
      type: [Provider],
      description: 'The networks of its targets, each once, in the targets’ order: what a list of posts shows of them.',
      resolve: (post) => networksOf(post) as never[],
    }),
    thumbnailUrl: t.string({
      nullable: true,
      description: 'The thumbnail of its first media file (signed, expiring), if it has one: what a list of posts shows of its media.',
      resolve: async (post, _args, context) => {
        const [firstId] = post.mediaIds;
        const first = 'media' in post ? post.media[0] : firstId === undefined ? undefined : await mediaLoader(context).load(firstId);
        return first ? mediaFileUrl(first, 'thumbnail', context.services.signer, context.services.config.publicBaseUrl) : null;
      },
    }),
  }),
});

const reviewContexts = new WeakMap<GraphContext, Promise<ReviewContext>>();

/** The caller's review context, read once per request (every post of a list shares it). */
function reviewContext(context: GraphContext): Promise<ReviewContext> {
  let known = reviewContexts.get(context);
  if (!known) {
    known = reviewContextOf(context.services.db.prisma, context.actor);
    reviewContexts.set(context, known);
  }
  return known;
}

/** Posts by id, every post a request's list names loaded with one query. */
export const postLoader = defineLoader((context, ids) => postsByIds(context.services.db, context.actor, ids));

const postsUsingMediaLoader = defineLoader((context, mediaIds) => postsUsingMedia(context.services.db, context.actor, mediaIds));

builder.objectField(MediaFile, 'usedBy', (t) =>
  t.field({
    type: [PostRef],
    description: 'The posts whose content names this file, newest first (needs posts:read).',
    authScopes: { operation: 'listPosts' },
    resolve: async (media, _args, context) => (await postsUsingMediaLoader(context).load(media.id)) ?? [],
  }),
);

const ThreadPartInput = builder.inputType('ThreadPartInput', {
  fields: (t) => ({ caption: t.string(), mediaIds: t.idList() }),
});

const PostContentInput = builder.inputType('PostContentInput', {
  fields: (t) => ({
    caption: t.string(),
    mediaIds: t.idList(),
    thread: t.field({ type: [ThreadPartInput], description: 'At most 25 parts after the first post, each published as a reply to the one before.' }),
  }),
});

const TargetOverrideInput = builder.inputType('TargetOverrideInput', {
  fields: (t) => ({
    caption: t.string(),
    thread: t.field({ type: [ThreadPartInput], description: 'Replaces the post’s thread for this target; [] drops it.' }),
  }),
});

type ThreadArgs = { caption?: string | null; mediaIds?: (string | number)[] | null }[] | null | undefined;

const threadInputOf = (thread: ThreadArgs) => thread?.map((part) => ({ caption: part.caption ?? undefined, mediaIds: part.mediaIds?.map(String) }));

export const TargetInput = builder.inputType('TargetInput', {
  fields: (t) => ({
    connectionId: t.id({ required: true, description: 'The id of a social account (`socialAccounts`).' }),
    placement: t.field({ type: Placement, required: true }),
    override: t.field({ type: TargetOverrideInput }),
    settings: t.field({ type: 'JSON', description: 'The network’s options (`providers`); its defaults fill what is left out.' }),
  }),
});

type TargetArgs = {
  connectionId: string | number;
  placement: string;
  override?: { caption?: string | null; thread?: ThreadArgs } | null;
  settings?: unknown;
}[];

/** The graph's post arguments as the domain's input (the body of POST /v1/posts). */
export function postInputOf(args: {
  content?: { caption?: string | null; mediaIds?: (string | number)[] | null; thread?: ThreadArgs } | null;
  targets: TargetArgs;
  campaign?: string | null;
}): PostInput {
  return {
    content: { caption: args.content?.caption ?? undefined, mediaIds: args.content?.mediaIds?.map(String), thread: threadInputOf(args.content?.thread) },
    targets: targetsOf(args.targets),
    campaign: args.campaign,
  };
}

function targetsOf(targets: TargetArgs): PostInput['targets'] {
  return targets.map((target) => ({
    connectionId: String(target.connectionId),
    placement: target.placement,
    override: target.override ? { caption: target.override.caption ?? undefined, thread: threadInputOf(target.override.thread) } : null,
    settings: (target.settings ?? null) as Record<string, unknown> | null,
  }));
}

const TargetFindings = builder.objectRef<ReturnType<typeof presentValidation>['targets'][number]>('TargetFindings').implement({
  description: 'What creating the post would refuse for one target; the same `field`, `code`, `message` as the error’s `details`.',
  fields: (t) => ({
    index: t.exposeInt('index', { description: 'The target’s place in `targets`.' }),
    connectionId: t.exposeID('connectionId'),
    placement: t.expose('placement', { type: Placement }),
    findings: t.expose('findings', { type: [ValidationFinding] }),
  }),
});

const PostValidation = builder.objectRef<ReturnType<typeof presentValidation>>('PostValidation').implement({
  fields: (t) => ({
    valid: t.exposeBoolean('valid', { description: 'True when no target has a finding: createPost would accept the post.' }),
    targets: t.expose('targets', { type: [TargetFindings] }),
  }),
});

builder.queryFields((t) => ({
  posts: t.connection({
    type: PostRef,
    args: {
      status: t.arg({ type: [PostStatus] }),
      from: t.arg({ type: 'DateTime' }),
      to: t.arg({ type: 'DateTime' }),
      connectionId: t.arg.id(),
      provider: t.arg({ type: Provider }),
      campaign: t.arg.string(),
    },
    authScopes: { operation: 'listPosts' },
    resolve: async (_root, args, context) => {
      const filters = {
        status: args.status ?? undefined,
        from: args.from ?? undefined,
        to: args.to ?? undefined,
        connectionId: args.connectionId ? String(args.connectionId) : undefined,
        provider: args.provider ?? undefined,
        campaign: args.campaign ?? undefined,
      };
      return toConnection(await listPosts(context.services.db, context.actor, filters, pageRequest(args)), postPosition);
    },
  }),
  post: t.field({
    type: PostRef,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { operation: 'getPost' },
    resolve: (_root, args, context) => getPost(context.services.db, context.actor, String(args.id)),
  }),
  validatePost: t.field({
    type: PostValidation,
    description: 'The dry run of createPost (REST POST /v1/posts/validate): the same checks, nothing saved.',
    args: {
      content: t.arg({ type: PostContentInput, required: true }),
      targets: t.arg({ type: [TargetInput], required: true }),
      campaign: t.arg.string(),
    },
    authScopes: { operation: 'validatePost' },
    resolve: async (_root, args, context) => presentValidation(await validatePost(context.services.db, context.actor, postInputOf(args)), context.language),
  }),
}));

builder.mutationFields((t) => ({
  createPost: t.field({
    type: PostRef,
    args: {
      content: t.arg({ type: PostContentInput, required: true }),
      targets: t.arg({ type: [TargetInput], required: true }),
      campaign: t.arg.string(),
    },
    authScopes: { operation: 'createPost' },
    resolve: (_root, args, context) => createPost(context.services.db, context.actor, postInputOf(args)),
  }),
  updatePost: t.field({
    type: PostRef,
    args: {
      id: t.arg.id({ required: true }),
      version: t.arg.int({ required: true }),
      content: t.arg({ type: PostContentInput }),
      targets: t.arg({ type: [TargetInput] }),
      campaign: t.arg.string(),
    },
    authScopes: { operation: 'updatePost' },
    resolve: (_root, args, context) =>
      updatePost(context.services.db, context.services.boss, context.actor, String(args.id), {
        version: args.version,
        content: args.content
          ? { caption: args.content.caption ?? undefined, mediaIds: args.content.mediaIds?.map(String), thread: threadInputOf(args.content.thread) }
          : undefined,
        targets: args.targets ? targetsOf(args.targets) : undefined,
        campaign: args.campaign,
      }),
  }),
  duplicatePost: t.field({
    type: PostRef,
    description: 'A new draft with the content, targets and campaign of post `id` (in any state), checked as createPost checks.',
    args: { id: t.arg.id({ required: true }) },
    authScopes: { operation: 'createPost' },
    resolve: (_root, args, context) => duplicatePost(context.services.db, context.actor, String(args.id)),
  }),
  deletePost: t.boolean({
    args: { id: t.arg.id({ required: true }) },
    authScopes: { operation: 'deletePost' },
    resolve: async (_root, args, context) => {
      await deletePost(context.services.db, context.services.outbox, context.actor, String(args.id));
      return true;
    },
  }),
  publishPost: t.field({
    type: PostRef,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { operation: 'publishPost' },
    resolve: (_root, args, context) => publishPost(context.services.db, context.services.boss, context.actor, String(args.id)),
  }),
  schedulePost: t.field({
    type: PostRef,
    args: { id: t.arg.id({ required: true }), scheduledAt: t.arg({ type: 'DateTime', required: true }), timezone: t.arg.string({ required: true }) },
    authScopes: { operation: 'schedulePost' },
    resolve: (_root, args, context) =>
      schedulePost(context.services.db, context.services.boss, context.services.outbox, context.actor, String(args.id), {
        scheduledAt: args.scheduledAt,
        timezone: args.timezone,
      }),
  }),
  retryPost: t.field({
    type: PostRef,
    args: { id: t.arg.id({ required: true }), targetId: t.arg.id() },
    authScopes: { operation: 'retryPost' },
    resolve: (_root, args, context) =>
      retryPost(context.services.db, context.services.boss, context.actor, String(args.id), args.targetId ? String(args.targetId) : undefined),
  }),
}));

import { builder } from '../builder.ts';
import { pageRequest, toConnection } from '../connections.ts';
import { createPost, deletePost, getPost, listPosts, postPosition, updatePost, withMedia, type PostDetail, type PostWithTargets } from '../../src/posts/posts.ts';
import { publishPost, retryPost, schedulePost } from '../../src/posts/publishing.ts';
import { validationOf } from '../../src/posts/present.ts';
import { storedError } from '../../src/errors/appError.ts';

type Target = PostWithTargets['targets'][number];

const TargetError = builder.objectRef<{ code: string; message: string }>('TargetError').implement({
  fields: (t) => ({ code: t.exposeString('code'), message: t.exposeString('message') }),
});

const ValidationProblem = builder.objectRef<{ rule: string; field: string; message: string }>('ValidationProblem').implement({
  fields: (t) => ({ rule: t.exposeString('rule'), field: t.exposeString('field'), message: t.exposeString('message') }),
});

const TargetValidation = builder.objectRef<{ valid: boolean; problems: { rule: string; field: string; message: string }[] }>('TargetValidation').implement({
  fields: (t) => ({ valid: t.exposeBoolean('valid'), problems: t.expose('problems', { type: [ValidationProblem] }) }),
});

const PostTarget = builder.objectRef<{ post: PostWithTargets | PostDetail; target: Target }>('PostTarget').implement({
  description: 'One account and placement a post goes to.',
  fields: (t) => ({
    id: t.id({ resolve: ({ target }) => target.id }),
    connectionId: t.id({ resolve: ({ target }) => target.connectionId }),
    provider: t.string({ resolve: ({ target }) => target.account.provider }),
    placement: t.string({ resolve: ({ target }) => target.placement }),
    overrideCaption: t.string({ nullable: true, resolve: ({ target }) => target.overrideCaption }),
    status: t.string({ resolve: ({ target }) => target.status }),
    remoteId: t.string({ nullable: true, resolve: ({ target }) => target.remoteId }),
    remoteUrl: t.string({ nullable: true, resolve: ({ target }) => target.remoteUrl }),
    error: t.field({ type: TargetError, nullable: true, resolve: ({ target }) => storedError(target) }),
    attempts: t.int({ resolve: ({ target }) => target.attempts }),
    publishedAt: t.field({ type: 'DateTime', nullable: true, resolve: ({ target }) => target.publishedAt }),
    validation: t.field({
      type: TargetValidation,
      resolve: async ({ post, target }, _args, context) =>
        validationOf('media' in post ? post : await withMedia(context.services.db.prisma, post), target, context.language),
    }),
  }),
});

export const PostRef = builder.objectRef<PostWithTargets | PostDetail>('Post').implement({
  description: 'A post: created once, published to one or more targets.',
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.exposeString('status'),
    version: t.exposeInt('version'),
    caption: t.exposeString('caption'),
    mediaIds: t.exposeIDList('mediaIds'),
    campaign: t.exposeString('campaign', { nullable: true }),
    scheduledAt: t.expose('scheduledAt', { type: 'DateTime', nullable: true }),
    timezone: t.exposeString('timezone', { nullable: true }),
    queueId: t.exposeID('queueId', { nullable: true }),
    publishedAt: t.expose('publishedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    targets: t.field({ type: [PostTarget], resolve: (post) => post.targets.map((target) => ({ post, target })) }),
  }),
});

const TargetInput = builder.inputType('TargetInput', {
  fields: (t) => ({
    connectionId: t.id({ required: true }),
    placement: t.string({ required: true }),
    overrideCaption: t.string(),
  }),
});

const targetsOf = (targets: { connectionId: string | number; placement: string; overrideCaption?: string | null }[]) =>
  targets.map((target) => ({
    connectionId: String(target.connectionId),
    placement: target.placement,
    override: target.overrideCaption === undefined || target.overrideCaption === null ? null : { caption: target.overrideCaption },
  }));

builder.queryFields((t) => ({
  posts: t.connection({
    type: PostRef,
    args: {
      status: t.arg.stringList(),
      from: t.arg({ type: 'DateTime' }),
      to: t.arg({ type: 'DateTime' }),
      connectionId: t.arg.id(),
      provider: t.arg.string(),
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
}));

builder.mutationFields((t) => ({
  createPost: t.field({
    type: PostRef,
    args: {
      caption: t.arg.string(),
      mediaIds: t.arg.idList(),
      targets: t.arg({ type: [TargetInput], required: true }),
      campaign: t.arg.string(),
    },
    authScopes: { operation: 'createPost' },
    resolve: (_root, args, context) =>
      createPost(context.services.db, context.actor, {
        content: { caption: args.caption ?? undefined, mediaIds: args.mediaIds?.map(String) },
        targets: targetsOf(args.targets),
        campaign: args.campaign,
      }),
  }),
  updatePost: t.field({
    type: PostRef,
    args: {
      id: t.arg.id({ required: true }),
      version: t.arg.int({ required: true }),
      caption: t.arg.string(),
      mediaIds: t.arg.idList(),
      targets: t.arg({ type: [TargetInput] }),
      campaign: t.arg.string(),
    },
    authScopes: { operation: 'updatePost' },
    resolve: (_root, args, context) =>
      updatePost(context.services.db, context.services.boss, context.actor, String(args.id), {
        version: args.version,
        content: { caption: args.caption ?? undefined, mediaIds: args.mediaIds?.map(String) },
        targets: args.targets ? targetsOf(args.targets) : undefined,
        campaign: args.campaign,
      }),
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
      schedulePost(context.services.db, context.services.boss, context.services.outbox, context.actor, String(args.id), { scheduledAt: args.scheduledAt, timezone: args.timezone }),
  }),
  retryPost: t.field({
    type: PostRef,
    args: { id: t.arg.id({ required: true }), targetId: t.arg.id() },
    authScopes: { operation: 'retryPost' },
    resolve: (_root, args, context) =>
      retryPost(context.services.db, context.services.boss, context.actor, String(args.id), args.targetId ? String(args.targetId) : undefined),
  }),
}));

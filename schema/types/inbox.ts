// The inbox (src/inbox/): comments on published posts, marked open or done, answered as the account.
import { builder } from '../builder.ts';
import { pageRequest, toConnection } from '../connections.ts';
import { defineLoader } from '../loaders.ts';
import { InboxKind, InboxReplyStatus, InboxStatus, Provider } from '../enums.ts';
import { listInbox, openCommentsOf, openInboxCount, replyToInboxItem, updateInboxItem, type InboxItemWithReplies } from '../../src/inbox/inbox.ts';
import type { InboxReply as InboxReplyRow } from '../../src/db/generated/prisma/client.ts';
import { storedError } from '../../src/errors/appError.ts';
import { PostRef, postLoader } from './posts.ts';

const ReplyError = builder.objectRef<{ code: string; message: string }>('InboxReplyError').implement({
  fields: (t) => ({ code: t.exposeString('code'), message: t.exposeString('message', { description: "The network's reason." }) }),
});

const InboxReplyRef = builder.objectRef<InboxReplyRow>('InboxReply').implement({
  description: 'An answer to an inbox item, posted once as the account.',
  fields: (t) => ({
    id: t.exposeID('id'),
    text: t.exposeString('text'),
    status: t.field({ type: InboxReplyStatus, resolve: (reply) => reply.status as never }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    publishedAt: t.expose('publishedAt', { type: 'DateTime', nullable: true }),
    remoteUrl: t.exposeString('remoteUrl', { nullable: true }),
    userId: t.exposeID('userId', { nullable: true }),
    error: t.field({ type: ReplyError, nullable: true, resolve: (reply) => storedError(reply) }),
  }),
});

const InboxAuthor = builder.objectRef<InboxItemWithReplies>('InboxAuthor').implement({
  fields: (t) => ({
    displayName: t.exposeString('authorName'),
    username: t.exposeString('authorUsername'),
    avatarUrl: t.exposeString('authorAvatarUrl', { nullable: true }),
  }),
});

const InboxItemRef = builder.objectRef<InboxItemWithReplies>('InboxItem').implement({
  description: 'A comment, reply or mention someone left on a published post, collected from its network.',
  fields: (t) => ({
    id: t.exposeID('id'),
    connectionId: t.exposeID('connectionId'),
    provider: t.field({ type: Provider, resolve: (item) => item.provider as never }),
    postId: t.exposeID('postId'),
    targetId: t.exposeID('targetId'),
    post: t.field({
      type: PostRef,
      nullable: true,
      description: 'The post it is on (its thumbnail, networks and accounts).',
      resolve: async (item, _args, context) => (await postLoader(context).load(item.postId)) ?? null,
    }),
    kind: t.field({ type: InboxKind, resolve: (item) => item.kind as never }),
    author: t.field({ type: InboxAuthor, resolve: (item) => item }),
    text: t.exposeString('text'),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the person wrote it.' }),
    remoteUrl: t.exposeString('remoteUrl', { nullable: true }),
    status: t.field({ type: InboxStatus, resolve: (item) => item.status as never }),
    replies: t.field({ type: [InboxReplyRef], description: 'Answers given from here, oldest first.', resolve: (item) => item.replies }),
  }),
});

const openCommentsLoader = defineLoader((context, postIds) => openCommentsOf(context.services.db, context.actor, postIds));

builder.objectField(PostRef, 'openComments', (t) =>
  t.field({
    type: [InboxItemRef],
    description: 'The open comments people left on the published post (the inbox), newest first, at most 25.',
    authScopes: { operation: 'listInbox' },
    resolve: async (post, _args, context) => (await openCommentsLoader(context).load(post.id)) ?? [],
  }),
);

builder.queryFields((t) => ({
  inbox: t.connection({
    type: InboxItemRef,
    description: 'Comments on the workspace’s published posts, newest first (REST GET /v1/inbox).',
    args: {
      status: t.arg({ type: InboxStatus }),
      connectionId: t.arg.id(),
      provider: t.arg({ type: Provider }),
      postId: t.arg.id(),
    },
    authScopes: { operation: 'listInbox' },
    resolve: async (_root, args, context) =>
      toConnection(
        await listInbox(
          context.services.db,
          context.actor,
          {
            status: args.status ?? undefined,
            connectionId: args.connectionId ? String(args.connectionId) : undefined,
            provider: args.provider ?? undefined,
            postId: args.postId ? String(args.postId) : undefined,
          },
          pageRequest(args),
        ),
        (item) => ({ at: item.createdAt.toISOString(), id: item.id }),
      ),
  }),
  inboxOpenCount: t.int({
    description: 'How many inbox items are open (the sidebar’s unread count).',
    authScopes: { operation: 'listInbox' },
    resolve: (_root, _args, context) => openInboxCount(context.services.db, context.actor),
  }),
}));

builder.mutationFields((t) => ({
  updateInboxItem: t.field({
    type: InboxItemRef,
    args: { id: t.arg.id({ required: true }), status: t.arg({ type: InboxStatus, required: true }) },
    authScopes: { operation: 'updateInboxItem' },
    resolve: (_root, args, context) => updateInboxItem(context.services.db, context.actor, String(args.id), { status: args.status }),
  }),
  replyToInboxItem: t.field({
    type: InboxReplyRef,
    description: 'Answers the comment as the account (REST POST /v1/inbox/{id}/replies): checked first, then posted once by a job.',
    args: { id: t.arg.id({ required: true }), text: t.arg.string({ required: true }) },
    authScopes: { operation: 'replyToInboxItem' },
    resolve: (_root, args, context) => replyToInboxItem(context.services.db, context.services.boss, context.actor, String(args.id), { text: args.text }),
  }),
}));

// Feeds in the graph: the same operations as REST's /v1/feeds (src/feeds/feeds.ts), with the same scopes and errors.
import { builder } from '../builder.ts';
import { pageRequest, toConnection } from '../connections.ts';
import { createFeed, deleteFeed, feedModes, feedPosition, feedStatuses, getFeed, listFeeds, presentFeed, updateFeed } from '../../src/feeds/feeds.ts';
import type { Feed as FeedRow } from '../../src/db/generated/prisma/client.ts';
import { domainEnum } from '../enums.ts';

const FeedMode = domainEnum('FeedMode', feedModes, 'What a feed’s new items become: drafts, or posts in a queue’s next slot.');
const FeedStatus = domainEnum('FeedStatus', feedStatuses, 'A feed before its first poll, polling, or failing since its last poll.');

type Presented = ReturnType<typeof presentFeed>;

const FeedError = builder.objectRef<NonNullable<Presented['lastError']>>('FeedError').implement({
  description: 'Why a feed’s last poll failed (REST’s `lastError`), in English like a network’s reason.',
  fields: (t) => ({ code: t.exposeString('code'), message: t.exposeString('message'), at: t.exposeString('at') }),
});

const FeedRef = builder.objectRef<FeedRow>('Feed').implement({
  description: 'An RSS 2.0 or Atom feed whose new items become posts (REST: /v1/feeds).',
  fields: (t) => ({
    id: t.exposeID('id'),
    url: t.exposeString('url'),
    connectionIds: t.exposeIDList('connectionIds'),
    placement: t.exposeString('placement', { nullable: true }),
    mode: t.field({ type: FeedMode, resolve: (feed) => presentFeed(feed).mode }),
    queueId: t.exposeID('queueId', { nullable: true }),
    template: t.exposeString('template'),
    status: t.field({ type: FeedStatus, resolve: (feed) => presentFeed(feed).status }),
    lastPolledAt: t.expose('lastPolledAt', { type: 'DateTime', nullable: true }),
    nextPollAt: t.expose('nextPollAt', { type: 'DateTime' }),
    lastError: t.field({ type: FeedError, nullable: true, resolve: (feed) => presentFeed(feed).lastError }),
    consecutiveFailures: t.exposeInt('consecutiveFailures'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryFields((t) => ({
  feeds: t.connection({
    type: FeedRef,
    authScopes: { operation: 'listFeeds' },
    resolve: async (_root, args, context) => toConnection(await listFeeds(context.services.db, context.actor, pageRequest(args)), feedPosition),
  }),
  feed: t.field({
    type: FeedRef,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { operation: 'getFeed' },
    resolve: (_root, args, context) => getFeed(context.services.db, context.actor, String(args.id)),
  }),
}));

builder.mutationFields((t) => ({
  createFeed: t.field({
    type: FeedRef,
    args: {
      url: t.arg.string({ required: true }),
      connectionIds: t.arg.idList({ required: true }),
      placement: t.arg({ type: 'String' }),
      mode: t.arg({ type: FeedMode, required: true }),
      queueId: t.arg.id(),
      template: t.arg.string(),
    },
    authScopes: { operation: 'createFeed' },
    resolve: (_root, args, context) =>
      createFeed(context.services.db, context.services.feeds.settings, context.actor, {
        url: args.url,
        connectionIds: args.connectionIds.map(String),
        placement: args.placement ?? null,
        mode: args.mode,
        queueId: args.queueId ? String(args.queueId) : null,
        template: args.template ?? undefined,
      }),
  }),
  updateFeed: t.field({
    type: FeedRef,
    description: 'Changes the feed; `placement` or `queueId` given as null clears it.',
    args: {
      id: t.arg.id({ required: true }),
      url: t.arg.string(),
      connectionIds: t.arg.idList(),
      placement: t.arg({ type: 'String' }),
      mode: t.arg({ type: FeedMode }),
      queueId: t.arg.id(),
      template: t.arg.string(),
    },
    authScopes: { operation: 'updateFeed' },
    resolve: (_root, args, context) =>
      updateFeed(context.services.db, context.services.feeds.settings, context.actor, String(args.id), {
        url: args.url ?? undefined,
        connectionIds: args.connectionIds?.map(String),
        placement: args.placement,
        mode: args.mode ?? undefined,
        queueId: args.queueId === undefined ? undefined : args.queueId === null ? null : String(args.queueId),
        template: args.template ?? undefined,
      }),
  }),
  deleteFeed: t.boolean({
    args: { id: t.arg.id({ required: true }) },
    authScopes: { operation: 'deleteFeed' },
    resolve: async (_root, args, context) => {
      await deleteFeed(context.services.db, context.actor, String(args.id));
      return true;
    },
  }),
}));

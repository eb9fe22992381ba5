import { builder } from '../builder.ts';
import { pageRequest, toConnection } from '../connections.ts';
import { createQueue, deleteQueue, listQueues, queuePosition, queuePost, slotsOf, updateQueue, upcomingPostsOfQueues } from '../../src/queues/queues.ts';
import { analytics } from '../../src/analytics/report.ts';
import { metricNames, type Metrics } from '../../src/analytics/metrics.ts';
import type { Queue as QueueRow } from '../../src/db/generated/prisma/client.ts';
import type { Slot } from '../../src/queues/slots.ts';
import { PostRef, postLoader } from './posts.ts';
import { defineLoader } from '../loaders.ts';
import { AnalyticsGrouping, enumValueName, PostStatus, Provider, Weekday } from '../enums.ts';

const SlotRef = builder.objectRef<Slot>('Slot').implement({
  fields: (t) => ({ day: t.expose('day', { type: Weekday }), time: t.exposeString('time', { description: 'HH:mm, local to the queue.' }) }),
});

const SlotInput = builder.inputType('SlotInput', {
  fields: (t) => ({ day: t.field({ type: Weekday, required: true }), time: t.string({ required: true, description: 'HH:mm' }) }),
});

const upcomingPostsLoader = defineLoader((context, queueIds) => upcomingPostsOfQueues(context.services.db, context.actor, queueIds));

const QueueRef = builder.objectRef<QueueRow>('Queue').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    timezone: t.exposeString('timezone'),
    slots: t.field({ type: [SlotRef], resolve: (queue) => slotsOf(queue) }),
    connectionIds: t.exposeIDList('connectionIds'),
    posts: t.field({
      type: [PostRef],
      description: 'The posts placed in this queue still to be published, soonest first.',
      resolve: async (queue, _args, context) => (await upcomingPostsLoader(context).load(queue.id)) ?? [],
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const QueueChange = builder.objectRef<{ queue: QueueRow; keptScheduledPosts: number }>('QueueChange').implement({
  fields: (t) => ({
    queue: t.field({ type: QueueRef, resolve: (change) => change.queue }),
    keptScheduledPosts: t.exposeInt('keptScheduledPosts', { description: 'Posts whose slot is gone, still scheduled at their time.' }),
  }),
});

const MetricsRef = builder.objectRef<Metrics>('Metrics').implement({
  fields: (t) => Object.fromEntries(metricNames.map((name) => [name, t.exposeFloat(name)])) as never,
});

type Report = Awaited<ReturnType<typeof analytics>>;

const AnalyticsRow = builder.objectRef<Report['rows'][number] & { groupBy: Report['groupBy'] }>('AnalyticsRow').implement({
  fields: (t) => ({
    key: t.exposeString('key', { description: 'The group: a day (YYYY-MM-DD), a network as its `Provider` value, an account id or a post id.' }),
    metrics: t.field({ type: MetricsRef, resolve: (row) => row.metrics }),
    post: t.field({
      type: PostRef,
      nullable: true,
      description: 'The post of a row by post (needs posts:read); null in other groupings and for a post since deleted.',
      authScopes: { operation: 'listPosts' },
      resolve: async (row, _args, context) => (row.groupBy === 'post' ? ((await postLoader(context).load(row.key)) ?? null) : null),
    }),
  }),
});

const AnalyticsResult = builder.objectRef<Report>('AnalyticsResult').implement({
  fields: (t) => ({
    from: t.exposeString('from'),
    to: t.exposeString('to'),
    groupBy: t.expose('groupBy', { type: AnalyticsGrouping }),
    totals: t.field({ type: MetricsRef, resolve: (result) => result.totals }),
    rows: t.field({
      type: [AnalyticsRow],
      // The domain's key of a network is REST's name; the graph names networks by the Provider enum everywhere.
      resolve: ({ groupBy, rows }) => rows.map((row) => ({ ...row, key: groupBy === 'provider' ? enumValueName(row.key) : row.key, groupBy })),
    }),
  }),
});

builder.queryFields((t) => ({
  queues: t.connection({
    type: QueueRef,
    authScopes: { operation: 'listQueues' },
    resolve: async (_root, args, context) => toConnection(await listQueues(context.services.db, context.actor, pageRequest(args)), queuePosition),
  }),
  analytics: t.field({
    type: AnalyticsResult,
    args: {
      from: t.arg.string({ required: true }),
      to: t.arg.string({ required: true }),
      groupBy: t.arg({ type: AnalyticsGrouping }),
      status: t.arg({ type: [PostStatus] }),
      connectionId: t.arg.id(),
      provider: t.arg({ type: Provider }),
      campaign: t.arg.string(),
    },
    authScopes: { operation: 'getAnalytics' },
    resolve: (_root, args, context) =>
      analytics(context.services.db, context.actor, {
        from: args.from,
        to: args.to,
        groupBy: args.groupBy ?? undefined,
        status: args.status ?? undefined,
        connectionId: args.connectionId ? String(args.connectionId) : undefined,
        provider: args.provider ?? undefined,
        campaign: args.campaign ?? undefined,
      }),
  }),
}));

builder.mutationFields((t) => ({
  createQueue: t.field({
    type: QueueRef,
    args: {
      name: t.arg.string({ required: true }),
      timezone: t.arg.string({ required: true }),
      slots: t.arg({ type: [SlotInput], required: true }),
      connectionIds: t.arg.idList(),
    },
    authScopes: { operation: 'createQueue' },
    resolve: (_root, args, context) =>
      createQueue(context.services.db, context.actor, {
        name: args.name,
        timezone: args.timezone,
        slots: args.slots,
        connectionIds: args.connectionIds?.map(String),
      }),
  }),
  updateQueue: t.field({
    type: QueueChange,
    args: {
      id: t.arg.id({ required: true }),
      name: t.arg.string(),
      timezone: t.arg.string(),
      slots: t.arg({ type: [SlotInput] }),
      connectionIds: t.arg.idList(),
    },
    authScopes: { operation: 'updateQueue' },
    resolve: (_root, args, context) =>
      updateQueue(context.services.db, context.actor, String(args.id), {
        name: args.name ?? undefined,
        timezone: args.timezone ?? undefined,
        slots: args.slots ?? undefined,
        connectionIds: args.connectionIds?.map(String),
      }),
  }),
  deleteQueue: t.int({
    description: 'Deletes the queue; answers how many of its posts stay scheduled at their times.',
    args: { id: t.arg.id({ required: true }) },
    authScopes: { operation: 'deleteQueue' },
    resolve: async (_root, args, context) => (await deleteQueue(context.services.db, context.actor, String(args.id))).keptScheduledPosts,
  }),
  queuePost: t.field({
    type: PostRef,
    args: { id: t.arg.id({ required: true }), queueId: t.arg.id({ required: true }) },
    authScopes: { operation: 'queuePost' },
    resolve: (_root, args, context) =>
      queuePost(context.services.db, context.services.boss, context.services.outbox, context.actor, String(args.id), String(args.queueId)),
  }),
}));

import { builder } from '../builder.ts';
import { pageRequest, toConnection } from '../connections.ts';
import {
  createWebhook,
  deleteWebhook,
  deliveryPosition,
  endpointPosition,
  listDeliveries,
  listWebhooks,
  presentDelivery,
  presentEndpoint,
  replayDelivery,
  rotateWebhookSecret,
  testWebhook,
  updateWebhook,
  endpointsByIds,
  type DeliveryWithLog,
} from '../../src/webhooks/endpoints.ts';
import { defineLoader } from '../loaders.ts';
import { DeliveryStatus, EventKind } from '../enums.ts';
import type { WebhookEndpoint as EndpointRow } from '../../src/db/generated/prisma/client.ts';

type EndpointView = ReturnType<typeof presentEndpoint> & { secret?: string };
type DeliveryView = ReturnType<typeof presentDelivery>;

const view = (row: EndpointRow) => presentEndpoint(row);
const endpointLoader = defineLoader((context, ids) => endpointsByIds(context.services.db, context.actor, ids));

const WebhookEndpoint = builder.objectRef<EndpointView>('WebhookEndpoint').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    url: t.exposeString('url'),
    events: t.field({ type: [EventKind], description: 'Empty means every kind.', resolve: (endpoint) => endpoint.events as never }),
    description: t.exposeString('description', { nullable: true }),
    enabled: t.exposeBoolean('enabled'),
    previousSecretExpiresAt: t.exposeString('previousSecretExpiresAt', { nullable: true }),
    secret: t.string({
      nullable: true,
      description: 'Only in the answer of createWebhook and rotateWebhookSecret.',
      resolve: (endpoint) => endpoint.secret ?? null,
    }),
    createdAt: t.exposeString('createdAt'),
  }),
});

const WebhookAttempt = builder.objectRef<DeliveryView['attemptLog'][number]>('WebhookAttempt').implement({
  fields: (t) => ({
    number: t.exposeInt('number'),
    attemptedAt: t.exposeString('attemptedAt'),
    statusCode: t.exposeInt('statusCode', { nullable: true }),
    durationMs: t.exposeInt('durationMs'),
    responseExcerpt: t.exposeString('responseExcerpt', { nullable: true }),
    error: t.exposeString('error', { nullable: true }),
  }),
});

const WebhookDelivery = builder.objectRef<DeliveryWithLog>('WebhookDelivery').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    eventId: t.exposeID('eventId'),
    eventType: t.field({ type: EventKind, resolve: (delivery) => delivery.event.type as never }),
    endpoint: t.field({
      type: WebhookEndpoint,
      resolve: async (delivery, _args, context) => view((await endpointLoader(context).load(delivery.endpointId))!),
    }),
    status: t.field({ type: DeliveryStatus, resolve: (delivery) => delivery.status as never }),
    attempts: t.exposeInt('attempts'),
    attemptLog: t.field({ type: [WebhookAttempt], resolve: (delivery) => presentDelivery(delivery).attemptLog }),
  }),
});

builder.queryFields((t) => ({
  webhooks: t.connection({
    type: WebhookEndpoint,
    authScopes: { operation: 'listWebhooks' },
    resolve: async (_root, args, context) => {
      const page = await listWebhooks(context.services.db, context.actor, pageRequest(args));
      const connection = toConnection(page, endpointPosition);
      return { ...connection, edges: connection.edges.map((edge) => ({ ...edge, node: view(edge.node) })) };
    },
  }),
  webhookDeliveries: t.connection({
    type: WebhookDelivery,
    args: { endpointId: t.arg.id({ required: true }) },
    authScopes: { operation: 'listWebhookDeliveries' },
    resolve: async (_root, args, context) =>
      toConnection(await listDeliveries(context.services.db, context.actor, String(args.endpointId), pageRequest(args)), deliveryPosition),
  }),
}));

builder.mutationFields((t) => ({
  createWebhook: t.field({
    type: WebhookEndpoint,
    args: { url: t.arg.string({ required: true }), events: t.arg({ type: [EventKind] }), description: t.arg.string() },
    authScopes: { operation: 'createWebhook' },
    resolve: (_root, args, context) =>
      createWebhook(context.services.db, context.services.webhooks, context.actor, {
        url: args.url,
        events: args.events ?? undefined,
        description: args.description,
      }),
  }),
  updateWebhook: t.field({
    type: WebhookEndpoint,
    args: {
      id: t.arg.id({ required: true }),
      url: t.arg.string(),
      events: t.arg({ type: [EventKind] }),
      description: t.arg.string(),
      enabled: t.arg.boolean(),
    },
    authScopes: { operation: 'updateWebhook' },
    resolve: async (_root, args, context) =>
      view(
        await updateWebhook(context.services.db, context.services.webhooks, context.services.outbox, context.actor, String(args.id), {
          url: args.url ?? undefined,
          events: args.events ?? undefined,
          description: args.description,
          enabled: args.enabled ?? undefined,
        }),
      ),
  }),
  deleteWebhook: t.boolean({
    args: { id: t.arg.id({ required: true }) },
    authScopes: { operation: 'deleteWebhook' },
    resolve: async (_root, args, context) => {
      await deleteWebhook(context.services.db, context.actor, String(args.id));
      return true;
    },
  }),
  rotateWebhookSecret: t.field({
    type: WebhookEndpoint,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { operation: 'rotateWebhookSecret' },
    resolve: (_root, args, context) => rotateWebhookSecret(context.services.db, context.services.webhooks, context.actor, String(args.id)),
  }),
  testWebhook: t.id({
    description: 'Queues a webhook.test delivery to this endpoint; answers the delivery id.',
    args: { id: t.arg.id({ required: true }) },
    authScopes: { operation: 'testWebhook' },
    resolve: async (_root, args, context) => (await testWebhook(context.services.db, context.services.outbox, context.actor, String(args.id))).id,
  }),
  replayWebhookDelivery: t.field({
    type: WebhookDelivery,
    args: { endpointId: t.arg.id({ required: true }), deliveryId: t.arg.id({ required: true }) },
    authScopes: { operation: 'replayWebhookDelivery' },
    resolve: (_root, args, context) =>
      replayDelivery(context.services.db, context.services.outbox, context.actor, String(args.endpointId), String(args.deliveryId)),
  }),
}));

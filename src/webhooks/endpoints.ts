// Webhook endpoints of a workspace: add (the secret is shown this once), list, read, change, delete, rotate the
// secret (the old one keeps signing for 24 h), send a test event, read the delivery log and replay a delivery.
import { AppError, invalidRequest, notFound, type ErrorDetail } from '../errors/appError.ts';
import type { Database } from '../db/database.ts';
import type { Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import type { SecretBox } from '../crypto/secretBox.ts';
import { isUuid } from '../ids.ts';
import { decodeCursor, newestFirstAfter, pageSize, toPage, type Page, type PageRequest } from '../pagination.ts';
import { eventTypes, viaPrisma, type Outbox } from '../events/outbox.ts';
import type { Prisma, WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '../db/generated/prisma/client.ts';
import { checkDestination, RefusedDestination } from '../outbound/guard.ts';
import { newWebhookSecret } from './signing.ts';
import { inputLimits, itemsWithin, refuseUnlessEmpty, textWithin } from '../limits.ts';

export const previousSecretTtlMs = 24 * 3600 * 1000;

export interface WebhookSettings {
  secrets: SecretBox;
  allowedHosts: ReadonlySet<string>;
}

export function presentEndpoint(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    enabled: endpoint.enabled,
    previousSecretExpiresAt:
      endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > new Date() ? endpoint.previousSecretExpiresAt.toISOString() : null,
    createdAt: endpoint.createdAt.toISOString(),
    updatedAt: endpoint.updatedAt.toISOString(),
  };
}

async function checkedUrl(url: string, settings: WebhookSettings): Promise<string> {
  try {
    return (await checkDestination(url, settings.allowedHosts)).url.toString();
  } catch (error) {
    if (!(error instanceof RefusedDestination)) throw error;
    throw invalidRequest([{ field: 'url', code: error.code, messageKey: `detail.webhookUrl.${error.code}`, params: error.params }]);
  }
}

function checkedEvents(events: string[] | undefined): string[] {
  const unknown = (events ?? []).filter((event) => !(eventTypes as readonly string[]).includes(event));
  if (unknown.length) {
    throw invalidRequest(
      unknown.map((): ErrorDetail => ({ field: 'events', code: 'enum', messageKey: 'detail.enum', params: { allowed: eventTypes.join(', ') } })),
    );
  }
  return [...new Set(events ?? [])];
}

/** The input limits of an endpoint's fields (src/limits.ts): 400 with details. */
function checkEndpointLimits(input: { url?: string; events?: string[]; description?: string | null }): void {
  const limits = inputLimits.webhook;
  refuseUnlessEmpty([
    ...textWithin('url', input.url, limits.url, 1),
    ...itemsWithin('events', input.events, limits.events),
    ...textWithin('description', input.description, limits.description),
  ]);
}

async function findEndpoint(db: Database, actor: Actor, id: string): Promise<WebhookEndpoint> {
  const endpoint = isUuid(id) ? await db.prisma.webhookEndpoint.findFirst({ where: { id, workspaceId: actor.workspaceId } }) : null;
  if (!endpoint) throw notFound('webhookEndpoint');
  return endpoint;
}

export async function createWebhook(
  db: Database,
  settings: WebhookSettings,
  actor: Actor,
  input: { url: string; events?: string[]; description?: string | null },
) {
  authorize(actor, 'createWebhook');
  checkEndpointLimits(input);
  const url = await checkedUrl(input.url, settings);
  const events = checkedEvents(input.events);
  const secret = newWebhookSecret();
  const endpoint = await db.prisma.webhookEndpoint.create({
    data: { workspaceId: actor.workspaceId, url, events, description: input.description ?? null, sealedSecret: settings.secrets.seal(secret) },
  });
  return { ...presentEndpoint(endpoint), secret };
}

export const endpointPosition = (endpoint: WebhookEndpoint) => ({ at: endpoint.createdAt.toISOString(), id: endpoint.id });

export async function listWebhooks(db: Database, actor: Actor, request: PageRequest): Promise<Page<WebhookEndpoint>> {
  authorize(actor, 'listWebhooks');
  const limit = pageSize(request);
  const rows = await db.prisma.webhookEndpoint.findMany({
    where: { workspaceId: actor.workspaceId, ...newestFirstAfter<Prisma.WebhookEndpointWhereInput>('createdAt', decodeCursor(request.cursor, isUuid)) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit + 1,
  });
  return toPage(rows, limit, endpointPosition);
}

/** Endpoints by id, for many at once (deliveries name theirs); another workspace's are not found. */
export async function endpointsByIds(db: Database, actor: Actor, ids: readonly string[]): Promise<Map<string, WebhookEndpoint>> {
  authorize(actor, 'listWebhooks');
  const endpoints = await db.prisma.webhookEndpoint.findMany({ where: { workspaceId: actor.workspaceId, id: { in: ids.filter(isUuid) } } });
  return new Map(endpoints.map((endpoint) => [endpoint.id, endpoint]));
}

export async function getWebhook(db: Database, actor: Actor, id: string): Promise<WebhookEndpoint> {
  authorize(actor, 'getWebhook');
  return findEndpoint(db, actor, id);
}

export async function updateWebhook(
  db: Database,
  settings: WebhookSettings,
  outbox: Outbox,
  actor: Actor,
  id: string,
  changes: { url?: string; events?: string[]; description?: string | null; enabled?: boolean },
): Promise<WebhookEndpoint> {
  authorize(actor, 'updateWebhook');
  checkEndpointLimits(changes);
  const endpoint = await findEndpoint(db, actor, id);
  const data: Prisma.WebhookEndpointUpdateInput = {
    ...(changes.url !== undefined ? { url: await checkedUrl(changes.url, settings) } : {}),
    ...(changes.events !== undefined ? { events: checkedEvents(changes.events) } : {}),
    ...(changes.description !== undefined ? { description: changes.description } : {}),
    ...(changes.enabled !== undefined ? { enabled: changes.enabled } : {}),
  };
  return db.prisma.$transaction(async (tx) => {
    const { count } = await tx.webhookEndpoint.updateMany({
      where: { id: endpoint.id, workspaceId: actor.workspaceId },
      data: data as Prisma.WebhookEndpointUpdateManyMutationInput,
    });
    if (!count) throw notFound('webhookEndpoint');
    const updated = await tx.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    // Enabled again: what waited while it was disabled goes out now.
    if (updated.enabled && !endpoint.enabled) await outbox.drainSoon(viaPrisma(tx), [endpoint.id]);
    return updated;
  });
}

export async function deleteWebhook(db: Database, actor: Actor, id: string): Promise<void> {
  authorize(actor, 'deleteWebhook');
  const { count } = isUuid(id) ? await db.prisma.webhookEndpoint.deleteMany({ where: { id, workspaceId: actor.workspaceId } }) : { count: 0 };
  if (!count) throw notFound('webhookEndpoint');
}

/** A new secret, shown this once; the previous one also signs deliveries for the next 24 hours. */
export async function rotateWebhookSecret(db: Database, settings: WebhookSettings, actor: Actor, id: string) {
  authorize(actor, 'rotateWebhookSecret');
  const endpoint = await findEndpoint(db, actor, id);
  const secret = newWebhookSecret();
  const { count } = await db.prisma.webhookEndpoint.updateMany({
    where: { id: endpoint.id, workspaceId: actor.workspaceId, sealedSecret: endpoint.sealedSecret },
    data: {
      sealedSecret: settings.secrets.seal(secret),
      sealedPreviousSecret: endpoint.sealedSecret,
      previousSecretExpiresAt: new Date(Date.now() + previousSecretTtlMs),
    },
  });
  // Another rotation in between, or a deletion: this one did not take.
  if (!count) throw new AppError('CONCURRENT_MODIFICATION', 'webhookChanged');
  return { ...presentEndpoint(await db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })), secret };
}

/** Sends a `webhook.test` event to this endpoint only. */
export async function testWebhook(db: Database, outbox: Outbox, actor: Actor, id: string): Promise<WebhookDelivery> {
  authorize(actor, 'testWebhook');
  const endpoint = await findEndpoint(db, actor, id);
  if (!endpoint.enabled) throw new AppError('CONFLICT', 'webhookDisabled');
  return db.prisma.$transaction(async (tx) => {
    const eventId = await outbox.record(tx, actor.workspaceId, 'webhook.test', { endpointId: endpoint.id, message: 'This is a test event.' });
    const deliveryId = await outbox.deliverTo(viaPrisma(tx), endpoint.id, eventId);
    return tx.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
  });
}

export const deliveryStatuses = ['pending', 'succeeded', 'failed'] as const;

export type DeliveryWithLog = WebhookDelivery & { attemptLog: WebhookAttempt[]; event: { type: string } };

export function presentDelivery(delivery: DeliveryWithLog) {
  return {
    id: delivery.id,
    eventId: delivery.eventId,
    eventType: delivery.event.type,
    status: delivery.status,
    attempts: delivery.attempts,
    nextAttemptAt: delivery.status === 'pending' ? delivery.nextAttemptAt.toISOString() : null,
    replayOf: delivery.replayOf,
    createdAt: delivery.createdAt.toISOString(),
    completedAt: delivery.completedAt?.toISOString() ?? null,
    attemptLog: delivery.attemptLog.map((attempt) => ({
      number: attempt.number,
      attemptedAt: attempt.attemptedAt.toISOString(),
      statusCode: attempt.statusCode,
      durationMs: attempt.durationMs,
      responseExcerpt: attempt.responseExcerpt,
      error: attempt.error,
    })),
  };
}

const withLog = { attemptLog: { orderBy: { number: 'asc' } }, event: { select: { type: true } } } as const satisfies Prisma.WebhookDeliveryInclude;
export const deliveryPosition = (delivery: WebhookDelivery) => ({ at: delivery.createdAt.toISOString(), id: delivery.id });

export async function listDeliveries(db: Database, actor: Actor, endpointId: string, request: PageRequest): Promise<Page<DeliveryWithLog>> {
  authorize(actor, 'listWebhookDeliveries');
  const endpoint = await findEndpoint(db, actor, endpointId);
  const limit = pageSize(request);
  const rows = await db.prisma.webhookDelivery.findMany({
    where: { endpointId: endpoint.id, ...newestFirstAfter<Prisma.WebhookDeliveryWhereInput>('createdAt', decodeCursor(request.cursor, isUuid)) },
    include: withLog,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit + 1,
  });
  return toPage(rows, limit, deliveryPosition);
}

/** Sends the delivery's event again, as a new delivery (same event id, so receivers can de-duplicate). */
export async function replayDelivery(db: Database, outbox: Outbox, actor: Actor, endpointId: string, deliveryId: string): Promise<DeliveryWithLog> {
  authorize(actor, 'replayWebhookDelivery');
  const endpoint = await findEndpoint(db, actor, endpointId);
  const original = isUuid(deliveryId) ? await db.prisma.webhookDelivery.findFirst({ where: { id: deliveryId, endpointId: endpoint.id } }) : null;
  if (!original) throw notFound('delivery');
  if (!endpoint.enabled) throw new AppError('CONFLICT', 'webhookDisabled');
  return db.prisma.$transaction(async (tx) => {
    const id = await outbox.deliverTo(viaPrisma(tx), endpoint.id, original.eventId, original.id);
    return tx.webhookDelivery.findUniqueOrThrow({ where: { id }, include: withLog });
  });
}

// Domain events, written to the outbox in the same transaction as the change they describe. The webhooks
// issue delivers them; their envelope is the spec's: { id, type, createdAt, data: { type: PascalCase, ... } }.
import type { Transaction } from '../db/database.ts';

export const eventTypes = [
  'post.scheduled',
  'post.published',
  'post.partially_published',
  'post.failed',
  'post.deleted',
  'target.published',
  'target.failed',
  'media.ready',
  'media.failed',
  'connection.connected',
  'connection.revoked',
  'ai.credits_low',
  'webhook.test',
] as const;
export type EventType = (typeof eventTypes)[number];

/** `post.partially_published` → `PostPartiallyPublished` */
export function dataTypeOf(type: EventType): string {
  return type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

export async function recordEvent(tx: Transaction, workspaceId: string, type: EventType, data: Record<string, unknown>): Promise<void> {
  await tx.outboxEvent.create({ data: { workspaceId, type, data: { type: dataTypeOf(type), ...data } as object } });
}

export interface EventEnvelope {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

export function envelopeOf(event: { id: string; type: string; createdAt: Date; data: unknown }): EventEnvelope {
  return { id: event.id, type: event.type, createdAt: event.createdAt.toISOString(), data: event.data as Record<string, unknown> };
}

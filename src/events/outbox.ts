// Domain events, written to the outbox in the same transaction as the change they describe. The webhooks
// issue delivers them; their envelope is the spec's: { id, type, createdAt, data: { type: PascalCase, ... } }.
import type pg from 'pg';
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

export interface NewEvent {
  workspaceId: string;
  type: EventType;
  data: Record<string, unknown>;
}

/** Many events in one statement, on a client inside the caller's transaction. Keeps their order. */
export async function insertEvents(client: pg.PoolClient, events: NewEvent[]): Promise<void> {
  if (!events.length) return;
  await client.query(
    `INSERT INTO outbox_event (id, workspace_id, type, data, created_at)
     SELECT gen_random_uuid(), e.workspace_id, e.type, e.data, clock_timestamp()
     FROM unnest($1::uuid[], $2::text[], $3::jsonb[]) WITH ORDINALITY AS e(workspace_id, type, data, ord) ORDER BY e.ord`,
    [events.map((e) => e.workspaceId), events.map((e) => e.type), events.map((e) => JSON.stringify({ type: dataTypeOf(e.type), ...e.data }))],
  );
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

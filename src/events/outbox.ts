// Domain events, written to the outbox in the same transaction as the change they describe, with one webhook
// delivery per subscribed endpoint and the job that delivers them: an event is recorded, and will be delivered,
// exactly when its change commits. Envelope (the spec's): { id, type, createdAt, data: { type: PascalCase, ... } }.
import type pg from 'pg';
import type { Transaction } from '../db/database.ts';
import { queueNames, type PgBoss } from '../jobs/boss.ts';

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

export interface NewEvent {
  workspaceId: string;
  type: EventType;
  data: Record<string, unknown>;
}

/** SQL inside the caller's transaction, whether it holds a Prisma transaction or a pg client. */
export interface SqlRunner {
  query<Row>(text: string, values: unknown[]): Promise<Row[]>;
}

export const viaPrisma = (tx: Transaction): SqlRunner => ({ query: (text, values) => tx.$queryRawUnsafe(text, ...values) });
export const viaClient = (client: pg.PoolClient | pg.Pool): SqlRunner => ({ query: async (text, values) => (await client.query(text, values)).rows });
/** Outside any transaction: each statement commits on its own. */
export const viaPool = (pool: pg.Pool): SqlRunner => viaClient(pool);

export interface EventEnvelope {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

export function envelopeOf(event: { id: string; type: string; createdAt: Date; data: unknown }): EventEnvelope {
  return { id: event.id, type: event.type, createdAt: event.createdAt.toISOString(), data: event.data as Record<string, unknown> };
}

export interface WebhookDrainJob {
  endpointId: string;
}

export class Outbox {
  readonly #boss: PgBoss;

  constructor(boss: PgBoss) {
    this.#boss = boss;
  }

  async record(tx: Transaction, workspaceId: string, type: EventType, data: Record<string, unknown>): Promise<string> {
    const [id] = await this.recordAll(viaPrisma(tx), [{ workspaceId, type, data }]);
    return id!;
  }

  /** Writes the events in order and queues their delivery to every enabled endpoint subscribed to them. */
  async recordAll(sql: SqlRunner, events: NewEvent[]): Promise<string[]> {
    if (!events.length) return [];
    const inserted = await sql.query<{ id: string }>(
      `INSERT INTO outbox_event (id, workspace_id, type, data, created_at)
       SELECT gen_random_uuid(), e.workspace_id, e.type, e.data, clock_timestamp()
       FROM unnest($1::uuid[], $2::text[], $3::jsonb[]) WITH ORDINALITY AS e(workspace_id, type, data, ord) ORDER BY e.ord
       RETURNING id`,
      [events.map((e) => e.workspaceId), events.map((e) => e.type), events.map((e) => JSON.stringify({ type: dataTypeOf(e.type), ...e.data }))],
    );
    const ids = inserted.map((row) => row.id);
    const deliveries = await sql.query<{ endpoint_id: string }>(
      `INSERT INTO webhook_delivery (id, endpoint_id, event_id, event_sequence)
       SELECT gen_random_uuid(), endpoint.id, event.id, event.sequence
       FROM outbox_event event JOIN webhook_endpoint endpoint ON endpoint.workspace_id = event.workspace_id
       WHERE event.id = ANY($1::uuid[]) AND event.type <> 'webhook.test' AND endpoint.enabled
         AND (cardinality(endpoint.events) = 0 OR event.type = ANY(endpoint.events))
       RETURNING endpoint_id`,
      [ids],
    );
    await this.drainSoon(sql, [...new Set(deliveries.map((row) => row.endpoint_id))]);
    return ids;
  }

  /** A delivery of one event to one endpoint (test events, replays), queued now. */
  async deliverTo(sql: SqlRunner, endpointId: string, eventId: string, replayOf: string | null = null): Promise<string> {
    const [row] = await sql.query<{ id: string }>(
      `INSERT INTO webhook_delivery (id, endpoint_id, event_id, event_sequence, replay_of)
       SELECT gen_random_uuid(), $1::uuid, id, sequence, $3::uuid FROM outbox_event WHERE id = $2::uuid RETURNING id`,
      [endpointId, eventId, replayOf],
    );
    await this.drainSoon(sql, [endpointId]);
    return row!.id;
  }

  /**
   * Queues the job that sends an endpoint's pending deliveries in event order (one at a time per endpoint, see
   * src/webhooks/delivery.ts): a slow or dead endpoint only ever holds up its own deliveries.
   */
  async drainSoon(sql: SqlRunner, endpointIds: string[], startAfter?: Date): Promise<void> {
    if (!endpointIds.length) return;
    await this.#boss.insert(
      queueNames.webhookDrain,
      endpointIds.map((endpointId) => ({ data: { endpointId } satisfies WebhookDrainJob, ...(startAfter ? { startAfter } : {}) })),
      { db: { executeSql: async (text: string, values: unknown[] = []) => ({ rows: await sql.query(text, values) }) } },
    );
  }
}

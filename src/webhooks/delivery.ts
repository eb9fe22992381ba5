// Delivering an endpoint's events, in event order: a drain job per endpoint sends its pending deliveries one by
// one; a failure puts the delivery on the retry schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, with jitter)
// and stops the drain until then, so later events wait behind it. After the last attempt the delivery is failed
// and the drain moves on. Every attempt is logged. Other endpoints have drains of their own and never wait.
// One drain per endpoint at a time is ensured by a lease on the endpoint's row, not by the job queue: a queue key
// would make pg-boss hold back other endpoints' jobs behind a slow endpoint's waiting one.
import { randomUUID } from 'node:crypto';
import { request, type Agent } from 'undici';
import type { Database } from '../db/database.ts';
import type { SecretBox } from '../crypto/secretBox.ts';
import type { Logger } from '../logger.ts';
import { envelopeOf, viaPool, type Outbox, type WebhookDrainJob } from '../events/outbox.ts';
import { queueNames, wokenByNotify, type PgBoss } from '../jobs/boss.ts';
import { checkDestination, pinnedAgent, RefusedDestination, type Destination } from '../outbound/guard.ts';
import { signDelivery } from './signing.ts';
import { webhookAttempts, webhookDeliveryLagSeconds } from '../metrics/registry.ts';

export interface DeliverySettings {
  allowedHosts: ReadonlySet<string>;
  /** Seconds to wait before each retry; one attempt more than there are entries. */
  retrySchedule: readonly number[];
  timeoutMs: number;
}

interface Deps {
  db: Database;
  secrets: SecretBox;
  outbox: Outbox;
  logger: Logger;
  settings: DeliverySettings;
}

interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  responseExcerpt: string | null;
  error: string | null;
}

const batch = 50;

/** What an attempt needs of its endpoint, read when the lease is taken or renewed. */
interface LeasedEndpoint {
  id: string;
  url: string;
  sealed_secret: string;
  sealed_previous_secret: string | null;
  previous_secret_expires_at: Date | null;
}
const leasedEndpointColumns = 'id, url, sealed_secret, sealed_previous_secret, previous_secret_expires_at';

interface DueDelivery {
  id: string;
  event_id: string;
  attempts: number;
  next_attempt_at: Date;
  event_type: string;
  event_data: Record<string, unknown>;
  event_created_at: Date;
}
/** Long enough for one attempt (its timeout) with room to spare; renewed with each attempt's record, for the next. */
const leaseSeconds = (settings: DeliverySettings) => Math.ceil(settings.timeoutMs / 1000) * 3 + 10;
const excerptBytes = 1024;

export class WebhookDeliverer {
  readonly #deps: Deps;
  /** Keep-alive connection pools per checked address, so every request goes to the address that was vetted. */
  readonly #agents = new Map<string, Agent>();

  constructor(deps: Deps) {
    this.#deps = deps;
  }

  /**
   * Sends the endpoint's due deliveries in event order, holding the endpoint's drain lease so that no other job
   * (of this process or another) sends to it meanwhile. A job that finds the lease taken ends at once: the holder
   * looks for new deliveries once more after letting the lease go. `holder` is the job's id: should the process
   * running it die, the queue runs the job again (its heartbeat stops), and that retry takes the lease back at once
   * rather than finding it taken until it expires, with nobody left to look again.
   */
  async drain(endpointId: string, holder: string = randomUUID()): Promise<void> {
    for (let endpoint = await this.#takeLease(endpointId, holder); endpoint; endpoint = await this.#takeLease(endpointId, holder)) {
      let due = false;
      try {
        await this.#sendDue(endpoint, holder);
      } finally {
        due = await this.#releaseLease(endpointId, holder);
      }
      if (!due) return;
    }
  }

  async #takeLease(endpointId: string, holder: string): Promise<LeasedEndpoint | null> {
    const { rows } = await this.#deps.db.pool.query<LeasedEndpoint>(
      `UPDATE webhook_endpoint SET drain_lease_until = now() + make_interval(secs => $2), drain_lease_holder = $3
       WHERE id = $1 AND enabled AND (drain_lease_until IS NULL OR drain_lease_until < now() OR drain_lease_holder = $3)
       RETURNING ${leasedEndpointColumns}`,
      [endpointId, leaseSeconds(this.#deps.settings), holder],
    );
    return rows[0] ?? null;
  }

  /** Lets the lease go; whether a delivery is due (the first pending one in event order: later ones wait behind a retry). */
  async #releaseLease(endpointId: string, holder: string): Promise<boolean> {
    const { rows } = await this.#deps.db.pool.query<{ due: boolean }>(
      `WITH released AS (UPDATE webhook_endpoint SET drain_lease_until = NULL, drain_lease_holder = NULL WHERE id = $1 AND drain_lease_holder = $2)
       SELECT next_attempt_at <= now() AS due FROM webhook_delivery WHERE endpoint_id = $1 AND status = 'pending'
       ORDER BY event_sequence, created_at LIMIT 1`,
      [endpointId, holder],
    );
    return rows[0]?.due ?? false;
  }

  async #sendDue(leased: LeasedEndpoint, holder: string): Promise<void> {
    let endpoint: LeasedEndpoint | null = leased;
    for (;;) {
      const { rows: due } = await this.#deps.db.pool.query<DueDelivery>(
        `SELECT d.id, d.event_id, d.attempts, d.next_attempt_at, e.type AS event_type, e.data AS event_data, e.created_at AS event_created_at
         FROM webhook_delivery d JOIN outbox_event e ON e.id = d.event_id
         WHERE d.endpoint_id = $1 AND d.status = 'pending' ORDER BY d.event_sequence, d.created_at LIMIT $2`,
        [leased.id, batch],
      );
      // Until nothing is left: deliveries that arrive meanwhile go out in this run.
      if (!due.length) return;
      for (const delivery of due) {
        if (delivery.next_attempt_at.getTime() > Date.now()) return this.#drainAt(leased.id, delivery.next_attempt_at);
        const outcome = await this.#attempt(endpoint, delivery, holder);
        // The endpoint as it is now (a rotated secret signs the next attempt); null once disabled or the lease is lost.
        endpoint = outcome.endpoint;
        if (outcome.nextAttemptAt) return this.#drainAt(leased.id, outcome.nextAttemptAt);
        if (!endpoint) return;
      }
    }
  }

  #drainAt(endpointId: string, at: Date): Promise<void> {
    return this.#deps.outbox.drainSoon(viaPool(this.#deps.db.pool), [endpointId], at);
  }

  /**
   * One attempt, logged, in one statement with the delivery's new state and the lease's renewal (long enough for the
   * next attempt). Returns when to try again if the delivery is still pending, and the endpoint for the next one.
   */
  async #attempt(endpoint: LeasedEndpoint, delivery: DueDelivery, holder: string): Promise<{ nextAttemptAt: Date | null; endpoint: LeasedEndpoint | null }> {
    const { db, secrets, settings } = this.#deps;
    const attemptedAt = new Date();
    const number = delivery.attempts + 1;
    const keys = [secrets.open(endpoint.sealed_secret)];
    if (endpoint.sealed_previous_secret && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > attemptedAt) {
      keys.push(secrets.open(endpoint.sealed_previous_secret));
    }
    const body = JSON.stringify(
      envelopeOf({ id: delivery.event_id, type: delivery.event_type, createdAt: delivery.event_created_at, data: delivery.event_data }),
    );
    const headers = signDelivery({
      secrets: keys,
      eventId: delivery.event_id,
      eventType: delivery.event_type,
      deliveryId: delivery.id,
      body,
      timestamp: Math.floor(attemptedAt.getTime() / 1000),
    });
    const result = await this.#send(
      endpoint.url,
      { ...headers, 'content-type': 'application/json', 'user-agent': 'social-publishing-service-webhooks/1' },
      body,
    );

    const delay = settings.retrySchedule[number - 1];
    const final = result.ok || delay === undefined;
    webhookAttempts.inc({ outcome: result.ok ? 'succeeded' : final ? 'failed' : 'retrying' });
    if (result.ok) webhookDeliveryLagSeconds.observe((Date.now() - delivery.event_created_at.getTime()) / 1000);
    const nextAttemptAt = final ? null : new Date(Date.now() + delay * 1000 * (0.9 + Math.random() * 0.2));
    const { rows } = await db.pool.query<LeasedEndpoint>(
      `WITH attempt AS (
         INSERT INTO webhook_attempt (id, delivery_id, number, attempted_at, status_code, duration_ms, response_excerpt, error)
         VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6, $7)),
       delivery AS (
         UPDATE webhook_delivery SET attempts = $2, status = $8, next_attempt_at = coalesce($9, next_attempt_at),
           completed_at = CASE WHEN $9::timestamptz IS NULL THEN now() END
         WHERE id = $1)
       UPDATE webhook_endpoint SET drain_lease_until = now() + make_interval(secs => $11)
       WHERE id = $10 AND enabled AND drain_lease_holder = $12
       RETURNING ${leasedEndpointColumns}`,
      [
        delivery.id,
        number,
        attemptedAt,
        result.statusCode,
        result.durationMs,
        result.responseExcerpt,
        result.error,
        result.ok ? 'succeeded' : final ? 'failed' : 'pending',
        nextAttemptAt,
        endpoint.id,
        leaseSeconds(settings),
        holder,
      ],
    );
    return { nextAttemptAt, endpoint: rows[0] ?? null };
  }

  async #send(url: string, headers: Record<string, string>, body: string): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let destination: Destination;
    try {
      destination = await checkDestination(url, this.#deps.settings.allowedHosts);
    } catch (error) {
      if (!(error instanceof RefusedDestination)) throw error;
      return {
        ok: false,
        statusCode: null,
        durationMs: elapsed(),
        responseExcerpt: null,
        error: `Refused before sending: ${error.reasonWith('WEBHOOK_ALLOWED_HOSTS')}`,
      };
    }
    try {
      const response = await request(destination.url, {
        method: 'POST',
        headers,
        body,
        dispatcher: this.#agentFor(destination),
        signal: AbortSignal.timeout(this.#deps.settings.timeoutMs),
        headersTimeout: this.#deps.settings.timeoutMs,
        bodyTimeout: this.#deps.settings.timeoutMs,
      });
      // Redirects are not followed: a 3xx is an answer like any other non-2xx.
      const excerpt = await readExcerpt(response.body);
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return {
        ok,
        statusCode: response.statusCode,
        durationMs: elapsed(),
        responseExcerpt: excerpt,
        error: ok ? null : `The endpoint answered ${response.statusCode}.`,
      };
    } catch (error) {
      return { ok: false, statusCode: null, durationMs: elapsed(), responseExcerpt: null, error: describeFailure(error, this.#deps.settings.timeoutMs) };
    }
  }

  #agentFor(destination: Destination): Agent {
    const key = `${destination.address}|${destination.url.host}`;
    let agent = this.#agents.get(key);
    if (!agent) {
      if (this.#agents.size >= 500) void this.close();
      agent = pinnedAgent(destination, { keepAliveTimeout: 10_000 });
      this.#agents.set(key, agent);
    }
    return agent;
  }

  async close(): Promise<void> {
    const agents = [...this.#agents.values()];
    this.#agents.clear();
    await Promise.all(agents.map((agent) => agent.close().catch(() => {})));
  }
}

const timeoutCodes = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const failureByCode: Record<string, string> = {
  ECONNREFUSED: 'Connection refused.',
  ECONNRESET: 'The connection was closed before an answer came.',
  EPIPE: 'The connection was closed before an answer came.',
  UND_ERR_SOCKET: 'The connection was closed before an answer came.',
  EHOSTUNREACH: 'The host is unreachable.',
  ENETUNREACH: 'The network of the host is unreachable.',
  ENOTFOUND: 'The host name could not be resolved.',
  EAI_AGAIN: 'The host name could not be resolved.',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS handshake failed: the certificate is not for this host.',
};
/** OpenSSL's certificate verification codes as Node reports them (CERT_HAS_EXPIRED, DEPTH_ZERO_SELF_SIGNED_CERT...). */
const certificateCode = /^(CERT_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_|HOSTNAME_MISMATCH|INVALID_CA|PATH_LENGTH_EXCEEDED)/;

const wordsOf = (code: string) => code.toLowerCase().replace(/_/g, ' ');

/**
 * What the attempt log says about a request that got no answer: a stable, human description chosen by the error's
 * code. An error's message is shown only when it is OpenSSL's fixed text for a certificate; other messages may carry
 * OpenSSL's source paths (`...:wrong version number:../deps/openssl/openssl/ssl/record/...`) or internal detail.
 */
function describeFailure(error: unknown, timeoutMs: number): string {
  const { name, code, message } = error as { name?: string; code?: unknown; message?: string };
  const codeText = typeof code === 'string' ? code : '';
  if (name === 'TimeoutError' || timeoutCodes.has(codeText)) return `No answer within ${timeoutMs / 1000} s.`;
  const known = failureByCode[codeText];
  if (known) return known;
  // A certificate's reason is OpenSSL's fixed verification text ("certificate has expired"); other TLS failures
  // are named from their code (ERR_SSL_WRONG_VERSION_NUMBER: "wrong version number").
  if (certificateCode.test(codeText)) return `TLS handshake failed: ${message && /^[\w\s'-]+$/.test(message) ? message : wordsOf(codeText)}.`;
  if (codeText.startsWith('ERR_SSL_')) return `TLS handshake failed: ${wordsOf(codeText.slice('ERR_SSL_'.length))}.`;
  return /^[A-Z][A-Z0-9_]*$/.test(codeText) ? `The request failed (${codeText}).` : 'The request failed.';
}

async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= excerptBytes) {
      body.destroy();
      break;
    }
  }
  const text = Buffer.concat(chunks).subarray(0, excerptBytes).toString('utf8');
  return text || null;
}

export async function startWebhookWorkers(boss: PgBoss, deliverer: WebhookDeliverer, logger: Logger): Promise<void> {
  await boss.work<WebhookDrainJob>(queueNames.webhookDrain, { batchSize: 1, localConcurrency: 16, ...wokenByNotify }, async ([job]) => {
    try {
      await deliverer.drain(job!.data.endpointId, job!.id);
    } catch (error) {
      logger.error({ err: error, endpointId: job!.data.endpointId }, 'webhook drain failed; it will be retried');
      throw error;
    }
  });
}

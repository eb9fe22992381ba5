// What a process measures about itself, in the Prometheus text format (prom-client). The instruments here are
// process-wide: any module counts or observes through them (`aiCalls.inc(...)`). What is read at scrape time
// (queues, the connection pool) is collected per runtime (collectors.ts), and both are served together.
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const processRegistry = new Registry();
collectDefaultMetrics({ register: processRegistry, prefix: 'sps_' });

export const httpRequestSeconds = new Histogram({
  name: 'sps_http_request_duration_seconds',
  help: 'HTTP requests by method, route template and status, from arrival to the last byte.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [processRegistry],
});

export const rateLimitRefusals = new Counter({
  name: 'sps_rate_limit_refusals_total',
  help: 'Requests answered 429 (API rate limit, sign-in guard, AI in-flight cap), by route template.',
  labelNames: ['route'] as const,
  registers: [processRegistry],
});

/** One answered HTTP request; a 429 is also a rate-limit refusal. */
export function observeHttpRequest(method: string, route: string, status: number, seconds: number): void {
  httpRequestSeconds.observe({ method, route, status: String(status) }, seconds);
  if (status === 429) rateLimitRefusals.inc({ route });
}

export const publishDelaySeconds = new Histogram({
  name: 'sps_publish_delay_seconds',
  help: 'From a scheduled post being due to its target being published.',
  buckets: [0.5, 1, 2, 5, 10, 30, 60, 120, 300, 900, 3600],
  registers: [processRegistry],
});

export const webhookDeliveryLagSeconds = new Histogram({
  name: 'sps_webhook_delivery_lag_seconds',
  help: 'From an event being recorded to its successful delivery to one endpoint.',
  buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 300, 1800, 7200],
  registers: [processRegistry],
});

export const webhookAttempts = new Counter({
  name: 'sps_webhook_attempts_total',
  help: 'Webhook delivery attempts by outcome: succeeded, retrying (will be tried again) or failed (gave up).',
  labelNames: ['outcome'] as const,
  registers: [processRegistry],
});

export const aiCalls = new Counter({
  name: 'sps_ai_calls_total',
  help: 'Calls to the AI provider by action and outcome (ok, error).',
  labelNames: ['action', 'outcome'] as const,
  registers: [processRegistry],
});

/** Runs one call to the AI provider, counting it by its outcome. */
export async function countedAiCall<T>(action: string, call: () => Promise<T>): Promise<T> {
  try {
    const result = await call();
    aiCalls.inc({ action, outcome: 'ok' });
    return result;
  } catch (error) {
    aiCalls.inc({ action, outcome: 'error' });
    throw error;
  }
}

// Signatures of webhook deliveries. Two schemes over the same body:
//  - ours:  x-post-signature: v1=<hex HMAC-SHA256 of "<x-post-timestamp>.<body>">, keyed with the secret string (UTF-8);
//  - Standard Webhooks (standardwebhooks.com): webhook-signature: v1,<base64 HMAC-SHA256 of "<webhook-id>.<timestamp>.<body>">,
//    keyed with the base64 bytes after "whsec_".
// During a rotation both the new and the previous secret sign (space-separated signatures, as both schemes allow).
import { createHmac, randomBytes } from 'node:crypto';

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export interface SignedHeaders {
  'x-post-event': string;
  'x-post-timestamp': string;
  'x-post-delivery': string;
  'x-post-signature': string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export function signDelivery(input: {
  secrets: string[];
  eventId: string;
  eventType: string;
  deliveryId: string;
  body: string;
  timestamp: number;
}): SignedHeaders {
  const ours = input.secrets.map(
    (secret) => `v1=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${input.timestamp}.${input.body}`).digest('hex')}`,
  );
  const standard = input.secrets.map(
    (secret) =>
      `v1,${createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64'))
        .update(`${input.eventId}.${input.timestamp}.${input.body}`)
        .digest('base64')}`,
  );
  return {
    'x-post-event': input.eventType,
    'x-post-timestamp': String(input.timestamp),
    'x-post-delivery': input.deliveryId,
    'x-post-signature': ours.join(' '),
    'webhook-id': input.eventId,
    'webhook-timestamp': String(input.timestamp),
    'webhook-signature': standard.join(' '),
  };
}

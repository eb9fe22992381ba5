// Random bearer secrets (API keys, session tokens) and their stored form: a SHA-256 digest. The secrets carry
// 256 bits of entropy, so a fast hash is the right lookup key (as GitHub and Stripe do); only passwords need a slow KDF.
import { createHash, randomBytes } from 'node:crypto';

export function newSecret(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

export function digestSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

// The brute-force guard of dashboard sign-in. Failed attempts are counted per account and per client address in
// leaky buckets in PostgreSQL (bucket.ts), shared by every server process: each allows `limit` failures at once and
// one more every hour / `limit` after that.
// - An attempt takes a unit from both buckets before the password is checked, so parallel guesses count too; a
//   refused attempt checks no password and answers 429 RATE_LIMITED with the wait.
// - The account is the email as typed (normalized), whether or not someone has it: an unknown email is throttled
//   and answered exactly like a known one. Only a digest of it is stored.
// - A successful sign-in empties the account's bucket and gives its unit back to the address's bucket, so a
//   person's own typos do not add up across days, and an office behind one address is not throttled by its
//   successful sign-ins.
// - An IPv6 client counts by its /64 network: one host usually holds a whole /64.
import { createHash, randomUUID } from 'node:crypto';
import type pg from 'pg';
import ipaddr from 'ipaddr.js';
import { AppError } from '../errors/appError.ts';
import { emptyBucket, secondsUntilLevel, takeFromBucket, type BucketPolicy } from './bucket.ts';

/** Failed sign-ins allowed at once; after that, one more every hour / limit. */
export interface SignInLimits {
  perAccount: number;
  perAddress: number;
}

export interface SignInAttempt {
  /** The password was right: forgive the account's failures and this attempt. */
  succeeded(): Promise<void>;
}

const hourMs = 3_600_000;

interface Bucket {
  subject: string;
  policy: BucketPolicy;
}

/** The client's address as buckets count it: an IPv6 client by its /64. */
export function addressKey(address: string | undefined): string {
  if (!address || !ipaddr.isValid(address)) return 'unknown';
  const parsed = ipaddr.process(address);
  return parsed.kind() === 'ipv6' ? `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`).toString()}/64` : parsed.toString();
}

/** Counts a sign-in attempt before its password is checked; throws RATE_LIMITED when either bucket is full. */
export async function startSignInAttempt(
  pool: pg.Pool,
  limits: SignInLimits,
  attempt: { email: string; clientAddress: string | undefined },
): Promise<SignInAttempt> {
  const holder = randomUUID();
  const account: Bucket = {
    subject: `sign-in:account:${createHash('sha256').update(attempt.email).digest('base64url')}`,
    policy: { limit: limits.perAccount, periodMs: hourMs },
  };
  const address: Bucket = { subject: `sign-in:address:${addressKey(attempt.clientAddress)}`, policy: { limit: limits.perAddress, periodMs: hourMs } };
  const take = (bucket: Bucket) => takeFromBucket(pool, bucket.policy, { subject: bucket.subject, holder, giveBack: 0, need: 1, want: 1 });
  const giveBack = (bucket: Bucket) => takeFromBucket(pool, bucket.policy, { subject: bucket.subject, holder, giveBack: 1, need: 0, want: 0 });

  const fromAccount = await take(account);
  if (!fromAccount.granted) throw throttled(account.policy, fromAccount.level);
  const fromAddress = await take(address);
  if (!fromAddress.granted) {
    await giveBack(account);
    throw throttled(address.policy, fromAddress.level);
  }
  return {
    async succeeded() {
      await emptyBucket(pool, account.subject);
      await giveBack(address);
    },
  };
}

function throttled(policy: BucketPolicy, level: number): AppError {
  const seconds = Math.max(1, secondsUntilLevel(policy, level, policy.limit - 1));
  return new AppError('RATE_LIMITED', 'signInThrottled', { seconds }, { headers: { 'Retry-After': String(seconds) } });
}

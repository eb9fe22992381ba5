// The record key of a target's post: a TID (the lexicon's `record key: tid`) derived from the target id, so every
// attempt for a target writes the same record and an earlier attempt is found by one lookup. Its time part is
// taken from a hash and kept before 2023 (before Bluesky opened), so it never collides with the clock-made TIDs
// of posts written by other clients; the post's real time is its `createdAt`.
import { createHash } from 'node:crypto';

const alphabet = '234567abcdefghijklmnopqrstuvwxyz';
/** Microseconds from the Unix epoch to 2023-01-01. */
const timeSpan = 1_672_531_200_000_000n;

export function recordKeyFor(idempotencyKey: string): string {
  const digest = createHash('sha256').update(idempotencyKey).digest();
  const micros = digest.readBigUInt64BE(0) % timeSpan;
  const clockId = BigInt(digest.readUInt16BE(8) & 0x3ff);
  let value = (micros << 10n) | clockId;
  let key = '';
  for (let i = 0; i < 13; i++) {
    key = alphabet[Number(value & 31n)] + key;
    value >>= 5n;
  }
  return key;
}

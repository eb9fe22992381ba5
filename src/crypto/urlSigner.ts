// Signed, expiring URLs (like S3's presigned URLs): whoever holds one may do that one thing until it expires.
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

export interface Signature {
  expires: number;
  signature: string;
}

export class UrlSigner {
  /** A KeyObject made once: handing createHmac the raw bytes would import the key again for every signature. */
  readonly #key: KeyObject;

  constructor(key: Buffer) {
    this.#key = createSecretKey(key);
  }

  #mac(subject: string, expires: number): string {
    return createHmac('sha256', this.#key).update(`${subject}\n${expires}`).digest('base64url');
  }

  /** `subject` names what the URL allows, e.g. `upload:<id>` or `media:<id>:thumbnail`. */
  sign(subject: string, ttlSeconds: number, now = Date.now()): Signature {
    const expires = Math.floor(now / 1000) + ttlSeconds;
    return { expires, signature: this.#mac(subject, expires) };
  }

  /** Constant-time check of the signature, then of the expiry. */
  verify(subject: string, expires: unknown, signature: unknown, now = Date.now()): boolean {
    const seconds = Number(expires);
    if (!Number.isInteger(seconds) || typeof signature !== 'string') return false;
    const expected = Buffer.from(this.#mac(subject, seconds));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected) && seconds * 1000 > now;
  }
}

// The shape of a short link, `<PUBLIC_BASE_URL>/l/<code>`. The origin is the installation's (set once at start by
// the runtime): a caption's length is checked against the shortened form wherever a post is checked, and those
// checks (create, change, validate, publish) take no configuration of their own.
import { createHash } from 'node:crypto';

export const codeLength = 10;
export const codePattern = /^[A-Za-z0-9_-]{10}$/;

let origin = 'http://localhost:3000';

export function setShortLinkOrigin(publicBaseUrl: string): void {
  origin = publicBaseUrl.replace(/\/+$/, '');
}

export const shortLinkOf = (code: string) => `${origin}/l/${code}`;

/**
 * The code of a target's link: derived from the target and the destination, so a retried or resumed publish
 * writes the same caption (the networks' duplicate checks see the same text) and the same rows.
 */
export function codeOf(targetId: string, destination: string): string {
  return createHash('sha256').update(`${targetId}\n${destination}`).digest('base64url').slice(0, codeLength);
}

/** The shortened form as long as any real one, for counting a caption's length before its codes exist. */
export const sampleShortLink = () => shortLinkOf('x'.repeat(codeLength));

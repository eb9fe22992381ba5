// The contract's wait where a network throttles without saying for how long (TikTok's, YouTube's, Pinterest's and
// LinkedIn's 429s): exponential from 30 s, doubling with each throttled attempt up to 15 minutes, plus up to half
// again at random so that the accounts a network stopped together do not all come back at once.
const firstWaitMs = 30_000;
const longestWaitMs = 15 * 60_000;

export function throttleBackoffMs(attempt: number, random = Math.random): number {
  const wait = Math.min(longestWaitMs, firstWaitMs * 2 ** Math.max(0, attempt - 1));
  return Math.min(longestWaitMs, wait + Math.floor(random() * (wait / 2)));
}

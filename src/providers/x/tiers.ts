// The X API access tier of the operator's app (X_API_TIER), and what the inbox may read with it. Recent search
// (GET /2/tweets/search/recent), which finds the replies to a post by its conversation, is limited per user per
// 15 minutes by tier (https://docs.x.com/x-api/fundamentals/rate-limits): Basic 60, Pro 300; pay-per-use apps have the
// per-endpoint limits of that page (300 per user) and pay per post read. The Free tier's app is refused search or
// allowed a single request per 15 minutes for the whole app: too little to read any account's replies, so the inbox
// says so instead of polling.
import type { Quota } from '../kit/quotas.ts';

export const xApiTiers = ['free', 'basic', 'pro', 'pay-per-use'] as const;
export type XApiTier = (typeof xApiTiers)[number];

/** Free: one search per 15 minutes for the whole app, where the app is given search at all. */
const searchesPer15Minutes: Record<XApiTier, number> = { free: 1, basic: 60, pro: 300, 'pay-per-use': 300 };

export const xFreeTierInbox =
  "X_API_TIER is free: X's Free tier has no recent search to find the replies to a post (https://docs.x.com/x-api/fundamentals/rate-limits). With a Basic, Pro or pay-per-use app, set X_API_TIER to it.";

/** Why the inbox is not collected with this tier, or null. */
export const xInboxUnavailable = (tier: XApiTier): string | null => (tier === 'free' ? xFreeTierInbox : null);

/** The tier's recent-search limit, the quota a poll is charged to (one unit per search). */
export function xSearchQuota(tier: XApiTier): Quota {
  const limit = searchesPer15Minutes[tier];
  return { name: `X recent search: ${limit} per 15 minutes (${tier})`, scope: 'account', windowSeconds: 900, limit, costPerPublish: 1 };
}

// YouTube's quotas as Google's quota calculator states them (https://developers.google.com/youtube/v3/determine_quota_cost):
// videos.insert has a bucket of its own, 100 calls a day (YOUTUBE_DAILY_UPLOADS), and every other method shares the
// project's 10,000 units a day (YOUTUBE_DAILY_QUOTA_UNITS). Both are kit quotas of the operator's app, each
// workspace allowed its share (APP_QUOTA_WORKSPACE_SHARE). The adapter charges publishes to both, the inbox its
// polls (one unit a list call) and answers (comments.insert, 50) to the units: one counter, so polls and answers
// never take what uploads need (pollSharePercent).
import type { Quota } from '../kit/quotas.ts';

export interface YouTubeQuotaOptions {
  /** YOUTUBE_DAILY_QUOTA_UNITS */
  dailyQuotaUnits: number;
  /** YOUTUBE_DAILY_UPLOADS: videos.insert's own bucket (100 unless Google raised it). */
  dailyUploads?: number;
  /** APP_QUOTA_WORKSPACE_SHARE: the percentage of each quota one workspace may use (100: none). */
  workspaceShare?: number;
}

/** Units one comment costs: commentThreads.insert (a first comment) and comments.insert (an answer) alike. */
export const youtubeCommentUnits = 50;

const day = 24 * 3600;

export const youtubeUnitsQuota = ({ dailyQuotaUnits, workspaceShare }: YouTubeQuotaOptions): Quota => ({
  name: 'YouTube Data API units per day',
  scope: 'app',
  windowSeconds: day,
  limit: dailyQuotaUnits,
  costPerPublish: 0,
  costPerReply: youtubeCommentUnits,
  workspaceShare,
});

export const youtubeQuotas = (options: YouTubeQuotaOptions): Quota[] => [
  {
    name: 'YouTube videos.insert calls per day',
    scope: 'app',
    windowSeconds: day,
    limit: options.dailyUploads ?? 100,
    costPerPublish: 1,
    workspaceShare: options.workspaceShare,
  },
  youtubeUnitsQuota(options),
];

// What the creator allows, read before every post as TikTok requires
// (https://developers.tiktok.com/doc/content-posting-api-reference-query-creator-info: POST
// /v2/post/publish/creator_info/query/, 20 a minute per token), and the post's interaction settings made from it:
// the privacy levels offered are the only ones a post may have (a private account offers no PUBLIC_TO_EVERYONE),
// and comments, duets and stitches the creator turned off stay off whatever the target's settings say.
import { ProviderError } from '../adapter.ts';
import type { TikTokApi } from './api.ts';

export interface CreatorInfo {
  creator_username?: string;
  creator_nickname?: string;
  privacy_level_options?: string[];
  comment_disabled?: boolean;
  duet_disabled?: boolean;
  stitch_disabled?: boolean;
  max_video_post_duration_sec?: number;
}

export interface TikTokSettings {
  privacyLevel?: string;
  allowComments: boolean;
  allowDuet: boolean;
  allowStitch: boolean;
  title?: string;
}

export interface Interactions {
  privacy_level: string;
  disable_comment: boolean;
  disable_duet: boolean;
  disable_stitch: boolean;
}

export function creatorInfo(api: TikTokApi, accessToken: string, signal?: AbortSignal): Promise<CreatorInfo> {
  return api.call<CreatorInfo>('/v2/post/publish/creator_info/query/', accessToken, {}, signal);
}

/** The privacy level and switches a post is sent with; a privacy level the creator does not offer is refused. */
export function interactionsFor(creator: CreatorInfo, settings: TikTokSettings): Interactions {
  const offered = creator.privacy_level_options ?? [];
  if (!offered.length) throw new ProviderError('PROVIDER_REJECTED', 'TikTok offers this creator no privacy level to post with.', false);
  const chosen = settings.privacyLevel ?? offered.find((level) => level.startsWith('PUBLIC')) ?? offered[0]!;
  if (!offered.includes(chosen))
    throw new ProviderError('PROVIDER_REJECTED', `TikTok does not let this creator post with privacyLevel ${chosen}; allowed: ${offered.join(', ')}.`, false);
  return {
    privacy_level: chosen,
    disable_comment: Boolean(creator.comment_disabled) || !settings.allowComments,
    disable_duet: Boolean(creator.duet_disabled) || !settings.allowDuet,
    disable_stitch: Boolean(creator.stitch_disabled) || !settings.allowStitch,
  };
}

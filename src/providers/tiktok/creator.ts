// What the creator allows, read before every post as TikTok requires
// (https://developers.tiktok.com/doc/content-posting-api-reference-query-creator-info: POST
// /v2/post/publish/creator_info/query/, 20 a minute per token), and the post's interaction settings made from it:
// the privacy levels offered are the only ones a post may have (a private account offers no PUBLIC_TO_EVERYONE),
// comments, duets and stitches the creator turned off stay off whatever the target's settings say, and a video
// longer than the creator's own maximum (`max_video_post_duration_sec`: 60, 180 or 600 s, per creator) is refused
// before any init or upload. TikTok's Content Sharing Guidelines
// (https://developers.tiktok.com/doc/content-sharing-guidelines) give no privacy level by default: the person
// chooses one (settings.privacyLevel, required by the rules), so the account's options name none.
import { ProviderError, type SettingOption, type SettingOptions } from '../adapter.ts';
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
  yourBrand: boolean;
  brandedContent: boolean;
  title?: string;
}

export interface Interactions {
  privacy_level: string;
  disable_comment: boolean;
  disable_duet: boolean;
  disable_stitch: boolean;
  brand_organic_toggle: boolean;
  brand_content_toggle: boolean;
}

export function creatorInfo(api: TikTokApi, accessToken: string, signal?: AbortSignal): Promise<CreatorInfo> {
  return api.call<CreatorInfo>('/v2/post/publish/creator_info/query/', accessToken, {}, signal);
}

/** The privacy level, switches and disclosure a post is sent with; a privacy level the creator does not offer is refused. */
export function interactionsFor(creator: CreatorInfo, settings: TikTokSettings): Interactions {
  const offered = creator.privacy_level_options ?? [];
  if (!offered.length) throw new ProviderError('PROVIDER_REJECTED', 'TikTok offers this creator no privacy level to post with.', false);
  const chosen = settings.privacyLevel;
  // Required by the rules, which the worker checks again before publishing: a post without it never gets here.
  if (!chosen || !offered.includes(chosen))
    throw new ProviderError('PROVIDER_REJECTED', `TikTok does not let this creator post with privacyLevel ${chosen}; allowed: ${offered.join(', ')}.`, false);
  return {
    privacy_level: chosen,
    disable_comment: Boolean(creator.comment_disabled) || !settings.allowComments,
    disable_duet: Boolean(creator.duet_disabled) || !settings.allowDuet,
    disable_stitch: Boolean(creator.stitch_disabled) || !settings.allowStitch,
    brand_organic_toggle: settings.yourBrand === true,
    brand_content_toggle: settings.brandedContent === true,
  };
}

/** A video longer than the creator may post is refused before it is sent: TikTok would take it and fail it after. */
export function checkVideoDuration(creator: CreatorInfo, durationMs: number | null): void {
  const maxSeconds = creator.max_video_post_duration_sec;
  if (!maxSeconds || durationMs === null || durationMs <= maxSeconds * 1000) return;
  throw new ProviderError(
    'PROVIDER_REJECTED',
    `This TikTok creator may post videos of at most ${maxSeconds} seconds (TikTok's max_video_post_duration_sec for the account); this video lasts ${Math.ceil(durationMs / 1000)} seconds.`,
    false,
  );
}

/** What TikTok's apps call each privacy level (the UX guidelines ask apps to show the creator's options by these names). */
const privacyLabels: Record<string, string> = {
  PUBLIC_TO_EVERYONE: 'Everyone',
  MUTUAL_FOLLOW_FRIENDS: 'Friends',
  FOLLOWER_OF_CREATOR: 'Followers',
  SELF_ONLY: 'Only me',
};

/** A switch the creator may have turned off: then it is off, whatever a target says. */
function switchOption(disabled: boolean | undefined, what: string): SettingOption {
  return disabled ? { default: false, unavailable: `The creator turned ${what} off on TikTok.` } : { default: false };
}

/**
 * The settings form's options for this creator: the privacy levels offered, in TikTok's order and with no default
 * (the person chooses), and the switches they allow.
 */
export function creatorSettingOptions(creator: CreatorInfo): SettingOptions {
  const offered = creator.privacy_level_options ?? [];
  return {
    privacyLevel: {
      choices: offered.map((level) => ({ value: level, label: privacyLabels[level] ?? level })),
      ...(offered.length ? {} : { unavailable: 'TikTok offers this creator no privacy level to post with.' }),
    },
    allowComments: switchOption(creator.comment_disabled, 'comments'),
    allowDuet: switchOption(creator.duet_disabled, 'duets'),
    allowStitch: switchOption(creator.stitch_disabled, 'stitches'),
  };
}

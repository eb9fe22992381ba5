// What the creator allows, read before every post as TikTok requires
// (https://developers.tiktok.com/doc/content-posting-api-reference-query-creator-info: POST
// /v2/post/publish/creator_info/query/, 20 a minute per token), and the post's interaction settings made from it:
// the privacy levels offered are the only ones a post may have (a private account offers no PUBLIC_TO_EVERYONE),
// and comments, duets and stitches the creator turned off stay off whatever the target's settings say.
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

/** A post's privacy level where its settings name none: the first public level the creator offers, else the first offered. */
const defaultPrivacyLevel = (offered: readonly string[]): string | undefined => offered.find((level) => level.startsWith('PUBLIC')) ?? offered[0];

/** The privacy level and switches a post is sent with; a privacy level the creator does not offer is refused. */
export function interactionsFor(creator: CreatorInfo, settings: TikTokSettings): Interactions {
  const offered = creator.privacy_level_options ?? [];
  if (!offered.length) throw new ProviderError('PROVIDER_REJECTED', 'TikTok offers this creator no privacy level to post with.', false);
  const chosen = settings.privacyLevel ?? defaultPrivacyLevel(offered)!;
  if (!offered.includes(chosen))
    throw new ProviderError('PROVIDER_REJECTED', `TikTok does not let this creator post with privacyLevel ${chosen}; allowed: ${offered.join(', ')}.`, false);
  return {
    privacy_level: chosen,
    disable_comment: Boolean(creator.comment_disabled) || !settings.allowComments,
    disable_duet: Boolean(creator.duet_disabled) || !settings.allowDuet,
    disable_stitch: Boolean(creator.stitch_disabled) || !settings.allowStitch,
  };
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
  return disabled ? { default: false, unavailable: `The creator turned ${what} off on TikTok.` } : { default: true };
}

/** The settings form's options for this creator: the privacy levels offered, in TikTok's order, and the switches they allow. */
export function creatorSettingOptions(creator: CreatorInfo): SettingOptions {
  const offered = creator.privacy_level_options ?? [];
  const privacyDefault = defaultPrivacyLevel(offered);
  return {
    privacyLevel: {
      choices: offered.map((level) => ({ value: level, label: privacyLabels[level] ?? level })),
      ...(privacyDefault ? { default: privacyDefault } : { unavailable: 'TikTok offers this creator no privacy level to post with.' }),
    },
    allowComments: switchOption(creator.comment_disabled, 'comments'),
    allowDuet: switchOption(creator.duet_disabled, 'duets'),
    allowStitch: switchOption(creator.stitch_disabled, 'stitches'),
  };
}

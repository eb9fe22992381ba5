// The shape of each network's published rules, served by GET /v1/providers and used to validate posts.
// The values are data (src/providers/<network>/rules.ts), so a change at a network is a one-line edit.
export type MediaKind = 'image' | 'video' | 'gif';

/** A JSON Schema (2020-12) object describing `targets[].settings` for one network, with defaults. */
export interface SettingsSchema {
  type: 'object';
  /** What the person is told before posting with these settings (TikTok's Music Usage Confirmation). */
  description?: string;
  properties: Record<string, Record<string, unknown>>;
  additionalProperties: false;
  required?: string[];
  /** Rules between settings (`if`/`then`), e.g. TikTok's branded content that cannot be private. */
  allOf?: Record<string, unknown>[];
}

/** Networks without options of their own. */
export const noSettings: SettingsSchema = { type: 'object', properties: {}, additionalProperties: false };

export interface CaptionRules {
  /** Longest caption. */
  maxLength: number;
  /** Longest caption of a post with media, where the network allows less then (Telegram: 1,024 against 4,096). */
  maxLengthWithMedia?: number;
  /** How length is counted: Unicode code points ("characters"), user-perceived characters ("graphemes"), or X's weighted count ("weighted"). */
  countedIn: 'characters' | 'graphemes' | 'weighted';
  required: boolean;
  maxHashtags: number | null;
  maxLinks: number | null;
  /** Networks that shorten links count every link as this many characters (X's t.co, Mastodon); null: as written. */
  charactersPerUrl: number | null;
}

export interface MediaCountRules {
  min: number;
  max: number;
  kinds: MediaKind[];
  /** At most this many videos (and GIFs) in one post; they never mix with other media when 1. */
  maxVideos: number;
  /** Whether images and videos may appear in the same post. */
  mixedKinds: boolean;
}

export interface PlacementRules {
  name: string;
  description: string;
  caption: CaptionRules;
  media: MediaCountRules;
  /** Allowed width/height ratio of visual media, inclusive; null when any. */
  aspectRatio: { min: number; max: number } | null;
  video: { minDurationMs: number; maxDurationMs: number } | null;
  /** Threads of posts (`content.thread`): each part a reply to the one before; absent where the placement has none. */
  thread?: ThreadRules;
}

/** A placement's threads: how many parts may follow the first post (each checked against the placement's rules). */
export interface ThreadRules {
  maxParts: number;
}

/** The most parts a thread may have after its first post (contract: "Threads and first comments"). */
export const maxThreadParts = 25;

/** `settings.firstComment` of a network that posts it as a reply: a reply is a post, so the caption's limit. */
export function firstCommentSetting(maxLength: number): Record<string, unknown> {
  return {
    type: 'string',
    minLength: 1,
    maxLength,
    description: 'Posted by the same account as a reply to the published post (after the last part of a thread).',
  };
}

export interface FileRules {
  formats: string[];
  maxBytes: number;
  minWidth: number | null;
  maxWidth: number | null;
  maxPixels: number | null;
}

export interface VideoFileRules extends FileRules {
  minDurationMs: number;
  maxDurationMs: number;
}

/**
 * What a network stores for one account (social_account.rules) where its rules differ per account: its own limits
 * (a Mastodon instance's), and `settingValues`, the values it narrows settings to (a LinkedIn page's visibilities).
 * Of `settings` themselves, only the catalog's count.
 */
export interface AccountRules extends Partial<ProviderRules> {
  settingValues?: Record<string, readonly unknown[]>;
}

export interface ProviderRules {
  provider: string;
  displayName: string;
  placements: PlacementRules[];
  image: FileRules;
  gif: FileRules | null;
  video: VideoFileRules | null;
  altText: { maxLength: number } | null;
  /** `targets[].settings` for this network, as a JSON Schema with defaults (validated on every check of a post). */
  settings: SettingsSchema;
  /** Posting limits the network enforces per account, e.g. "250 API posts per 24 hours". */
  postingLimits: string[];
  notes: string[];
}

export const MB = 1024 * 1024;
export const GB = 1024 * MB;
export const minutes = (n: number) => n * 60_000;
export const seconds = (n: number) => n * 1000;

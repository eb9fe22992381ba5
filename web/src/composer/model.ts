// What the composer works with: the graph's accounts and network rules, the targets being composed, and the API's
// findings and error details, sorted to the field they name.
import type { ApiError } from '../api/auth.ts';
import type { CaptionCounting } from '../../../src/posts/captionLength.ts';
import type { Provider } from '../../../schema/generated/graphql.ts';

export interface Account {
  id: string;
  displayName: string;
  username: string;
  provider: Provider;
  status: string;
  avatarUrl: string | null;
}

/** A JSON Schema of one setting, as the networks publish them (GET /providers `settings`). */
export interface SettingSchema {
  type?: string;
  /** The label to show, where the network gives one (TikTok's "Your brand"); else made from the name. */
  title?: string;
  enum?: unknown[];
  default?: unknown;
  description?: string;
  format?: string;
  /** What a text value must match (Reddit's subreddit names). */
  pattern?: string;
  items?: { type?: string; enum?: unknown[] };
}
export interface SettingsSchema {
  /** What the person is told before posting with these settings (TikTok's Music Usage Confirmation). */
  description?: string;
  properties?: Record<string, SettingSchema>;
  required?: string[];
}

export interface PlacementRules {
  name: string;
  caption: { maxLength: number; maxLengthWithMedia: number | null; required: boolean } & CaptionCounting;
  media: { max: number };
  /** null: the network refuses a thread in this placement. */
  thread: { maxParts: number } | null;
}
export interface ProviderRules {
  provider: Provider;
  displayName: string;
  placements: PlacementRules[];
  settings: SettingsSchema;
}

/** One account the post goes to: its placement, its own caption when it has one, and the network's settings set here. */
export interface TargetDraft {
  account: Account;
  placement: string;
  override: string | null;
  settings: Record<string, unknown>;
}

export interface Finding {
  code: string;
  field: string;
  message: string;
}

/** `targets` as createPost and validatePost take them: settings and override only where the person set them. */
export function targetInputs(targets: readonly TargetDraft[]) {
  return targets.map(({ account, placement, override, settings }) => ({
    connectionId: account.id,
    placement: placement.toUpperCase(),
    ...(override === null ? {} : { override: { caption: override } }),
    ...(Object.keys(settings).length ? { settings } : {}),
  }));
}

/**
 * A part of a thread after the first post, as `content.thread` takes and answers it. `key` tells the composer's parts
 * apart while they are moved; a saved part's media are kept as they were read.
 */
export interface ThreadPartDraft {
  key: string;
  caption: string;
  mediaIds: string[];
}

let partsMade = 0;
export const newThreadPart = (caption = '', mediaIds: string[] = []): ThreadPartDraft => ({ key: `part-${++partsMade}`, caption, mediaIds });

export const threadInput = (parts: readonly ThreadPartDraft[]) => parts.map(({ caption, mediaIds }) => ({ caption, mediaIds }));

export const threadDraftOf = (parts: readonly { caption: string; mediaIds: string[] }[]): ThreadPartDraft[] =>
  parts.map((part) => newThreadPart(part.caption, part.mediaIds));

export const captionOf = (target: TargetDraft, caption: string) => target.override ?? caption;

/**
 * The messages about one field of target `index` (e.g. `settings.visibility`): from the live rule check's findings and
 * from the details of the API's last refusal, both naming fields from the top of the request (`targets[0].settings.visibility`).
 */
export function messagesFor(field: string, findings: readonly Finding[], error: ApiError | null, index: number): string[] {
  const path = `targets[${index}].${field}`;
  const names = (candidate: string) => candidate === path || candidate.startsWith(`${path}.`) || candidate.startsWith(`${path}[`);
  return [...new Set([...findings, ...(error?.details ?? [])].filter((detail) => names(detail.field)).map((detail) => detail.message))];
}

/** A saved target as the graph answers it (`post { targets { ... } }`), for editing. */
export interface SavedTarget {
  placement: string;
  settings: Record<string, unknown>;
  override: { caption: string } | null;
  account: Account;
}

/** A saved target as the composer holds it (placements in the providers' lower case, as `targetInputs` expects). */
export function draftOf(target: SavedTarget): TargetDraft {
  return { account: target.account, placement: target.placement.toLowerCase(), override: target.override?.caption ?? null, settings: target.settings };
}

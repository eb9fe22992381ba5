// A post against the rules of each target's network (GET /providers): the same check on create, change,
// schedule, queue and publish. Each broken rule names its target and rule.
import type { ErrorDetail } from '../errors/appError.ts';
import type { MessageKey } from '../errors/messages.ts';
import { rulesForAccount, rulesOf } from '../providers/catalog.ts';
import { checkSettings } from '../providers/settings.ts';
import type { MediaKind, PlacementRules, ProviderRules, ThreadRules } from '../providers/rules.ts';
import { linkPattern } from '../text/links.ts';
import { captionLength, captionLimit } from './captionLength.ts';
import { linkCaption } from '../links/caption.ts';
import { linksAsWritten, storedLinkSetting } from '../links/setting.ts';
import { sampleShortLink } from '../links/shortForm.ts';

/** What validation needs to know of a ready media file. */
export interface MediaFacts {
  id: string;
  kind: MediaKind;
  format: string;
  size: number;
  width: number;
  height: number;
  durationMs: number | null;
  altText: string | null;
}

export interface TargetContent {
  provider: string;
  accountStatus: string;
  /** The account's own limits where its network gives them per account (social_account.rules). */
  accountRules?: unknown;
  placement: string;
  caption: string;
  media: readonly MediaFacts[];
  /** The parts after the first post, and where the post names them (`content.thread` or `override.thread`). */
  thread?: ThreadContent;
  settings?: Record<string, unknown> | null;
}

/** A thread's parts as checked: each against the placement's rules, as the first post is. */
export interface ThreadContent {
  field: 'content.thread' | 'override.thread';
  parts: readonly { caption: string; media: readonly MediaFacts[] }[];
}

export interface RuleViolation {
  rule: string;
  /** Relative to the target, except fields of the post's own content (`content.…`): see violationDetails. */
  field: string;
  messageKey: MessageKey;
  params: Record<string, string | number>;
}

const hashtagPattern = /(^|\s)#[\p{L}\p{N}_]+/gu;

/** Every rule the target's content breaks (empty when it fits). Fields are relative to the target. */
export function checkTarget(target: TargetContent): RuleViolation[] {
  return checkTargetWithSettings(target).violations;
}

/** The broken rules, and the target's settings with the network's defaults applied. */
export function checkTargetWithSettings(target: TargetContent): { violations: RuleViolation[]; settings: Record<string, unknown> } {
  const rules = rulesForAccount({ provider: target.provider, rules: target.accountRules });
  const settings = rules ? checkSettings(rules, target.settings) : { values: target.settings ?? {}, details: [] };
  // Checked as published: with the `links` setting's UTM parameters and short links, counted as the network counts links.
  const links = storedLinkSetting(settings.values.links) ?? linksAsWritten;
  const violations: RuleViolation[] = [
    ...contentViolations({ ...target, caption: linkCaption(target.caption, links, sampleShortLink).caption }),
    ...settings.details.map((detail) => ({ rule: `settings.${detail.code}`, field: detail.field, messageKey: detail.messageKey, params: detail.params ?? {} })),
  ];
  return { violations, settings: settings.values };
}

function contentViolations(target: TargetContent): RuleViolation[] {
  if (target.accountStatus !== 'ACTIVE') {
    return [{ rule: 'account.active', field: 'connectionId', messageKey: 'rule.accountInactive', params: { status: target.accountStatus } }];
  }
  const rules = rulesForAccount({ provider: target.provider, rules: target.accountRules });
  const placement = rules?.placements.find((candidate) => candidate.name === target.placement);
  if (!rules || !placement) {
    const allowed = rules?.placements.map((candidate) => candidate.name).join(', ') ?? '';
    return [{ rule: 'placement', field: 'placement', messageKey: 'rule.placement', params: { provider: target.provider, allowed } }];
  }
  // Thread support is the catalog's: an account's own limits (a Mastodon instance's) may have been read before threads.
  const threads = rulesOf(target.provider)?.placements.find((candidate) => candidate.name === placement.name)?.thread;
  return [
    ...postViolations(rules, placement, target, { field: '', empty: 'rule.emptyPost' }),
    ...threadViolations(target.provider, rules, placement, threads, target.thread),
    ...(threads ? replyViolations(placement, target.settings) : []),
  ];
}

/** A thread against the placement: whether it has threads, how many parts, and each part as a post of its own. */
function threadViolations(
  provider: string,
  rules: ProviderRules,
  placement: PlacementRules,
  threads: ThreadRules | undefined,
  thread: ThreadContent | undefined,
): RuleViolation[] {
  if (!thread?.parts.length) return [];
  if (!threads) {
    // Named on the target, whether its thread is the post's or its own: dropping it there (override.thread: []) is the fix.
    return [{ rule: 'thread.unsupported', field: 'override.thread', messageKey: 'rule.threadUnsupported', params: { provider, placement: placement.name } }];
  }
  if (thread.parts.length > threads.maxParts) {
    return [
      {
        rule: 'thread.maxParts',
        field: thread.field,
        messageKey: 'rule.tooManyThreadParts',
        params: { provider, count: thread.parts.length, limit: threads.maxParts },
      },
    ];
  }
  return thread.parts.flatMap((part, index) => postViolations(rules, placement, part, { field: `${thread.field}[${index}].`, empty: 'rule.emptyThreadPart' }));
}

/** Where a first comment is a reply it is a post: its length is counted as the placement counts captions. */
function replyViolations(placement: PlacementRules, settings: Record<string, unknown> | null | undefined): RuleViolation[] {
  const comment = settings?.firstComment;
  return typeof comment === 'string' ? replyLengthViolations(placement, comment, 'settings.firstComment') : [];
}

function replyLengthViolations(placement: PlacementRules, text: string, field: string, limit = placement.caption.maxLength): RuleViolation[] {
  const length = captionLength(text, placement.caption);
  if (length <= limit) return [];
  return [
    {
      rule: 'caption.maxLength',
      field,
      messageKey: placement.caption.countedIn === 'graphemes' ? 'rule.captionTooLongGraphemes' : 'rule.captionTooLong',
      params: { length, limit, unit: placement.caption.countedIn },
    },
  ];
}

/** The longest comment the network takes, where its comments have a limit of their own: its first comment's (LinkedIn's 1,250 characters). */
function commentLimit(rules: ProviderRules): number | undefined {
  const maxLength = (rules.settings as { properties?: { firstComment?: { maxLength?: unknown } } }).properties?.firstComment?.maxLength;
  return typeof maxLength === 'number' ? maxLength : undefined;
}

/**
 * An answer to a comment (the inbox) is a post of the account's network: counted as the placement of the post it
 * answers counts captions, and no longer than a first comment there may be.
 */
export function checkReplyText(target: { provider: string; accountRules?: unknown; placement: string }, text: string): RuleViolation[] {
  const rules = rulesForAccount({ provider: target.provider, rules: target.accountRules });
  const placement = rules?.placements.find((candidate) => candidate.name === target.placement) ?? rules?.placements[0];
  if (!rules || !placement) return [];
  if (text.trim() === '') return [{ rule: 'caption.required', field: 'text', messageKey: 'rule.captionRequired', params: {} }];
  return replyLengthViolations(placement, text, 'text', Math.min(placement.caption.maxLength, commentLimit(rules) ?? Number.POSITIVE_INFINITY));
}

/** One post (the first, or a part of a thread) against the placement's caption and media rules; fields under `at.field`. */
function postViolations(
  rules: ProviderRules,
  placement: PlacementRules,
  target: { caption: string; media: readonly MediaFacts[] },
  at: { field: string; empty: MessageKey },
): RuleViolation[] {
  const violations: RuleViolation[] = [];
  const { caption, media } = placement;
  const length = captionLength(target.caption, caption);
  const limit = captionLimit(caption, target.media.length > 0);
  if (length > limit) {
    violations.push({
      rule: 'caption.maxLength',
      field: 'caption',
      messageKey: caption.countedIn === 'graphemes' ? 'rule.captionTooLongGraphemes' : 'rule.captionTooLong',
      params: { length, limit, unit: caption.countedIn },
    });
  }
  if (caption.required && target.caption.trim() === '') {
    violations.push({ rule: 'caption.required', field: 'caption', messageKey: 'rule.captionRequired', params: {} });
  }
  const hashtags = target.caption.match(hashtagPattern)?.length ?? 0;
  if (caption.maxHashtags !== null && hashtags > caption.maxHashtags) {
    violations.push({
      rule: 'caption.maxHashtags',
      field: 'caption',
      messageKey: 'rule.tooManyHashtags',
      params: { count: hashtags, limit: caption.maxHashtags },
    });
  }
  const links = target.caption.match(linkPattern)?.length ?? 0;
  if (caption.maxLinks !== null && links > caption.maxLinks) {
    violations.push({ rule: 'caption.maxLinks', field: 'caption', messageKey: 'rule.tooManyLinks', params: { count: links, limit: caption.maxLinks } });
  }
  const count = target.media.length;
  if (count < media.min)
    violations.push({ rule: 'media.min', field: 'mediaIds', messageKey: 'rule.tooFewMedia', params: { count, limit: media.min, placement: placement.name } });
  if (count > media.max)
    violations.push({ rule: 'media.max', field: 'mediaIds', messageKey: 'rule.tooManyMedia', params: { count, limit: media.max, placement: placement.name } });
  if (target.caption.trim() === '' && count === 0) {
    violations.push({ rule: 'content.empty', field: 'caption', messageKey: at.empty, params: {} });
  }
  const moving = target.media.filter((file) => file.kind !== 'image').length;
  if (moving > media.maxVideos)
    violations.push({
      rule: 'media.maxVideos',
      field: 'mediaIds',
      messageKey: 'rule.tooManyVideos',
      params: { limit: media.maxVideos, placement: placement.name },
    });
  if (!media.mixedKinds && moving > 0 && moving < count)
    violations.push({ rule: 'media.mixed', field: 'mediaIds', messageKey: 'rule.mixedMedia', params: { placement: placement.name } });
  for (const [index, file] of target.media.entries()) violations.push(...checkFile(rules, placement, file, `mediaIds[${index}]`));
  return violations.map((violation) => ({ ...violation, field: `${at.field}${violation.field}` }));
}

/** One media file against the network's file rules and the placement's shape and duration. */
function checkFile(rules: ProviderRules, placement: PlacementRules, file: MediaFacts, field: string): RuleViolation[] {
  const provider = rules.provider;
  const files = file.kind === 'image' ? rules.image : file.kind === 'gif' ? rules.gif : rules.video;
  if (!files || !placement.media.kinds.includes(file.kind)) {
    return [{ rule: 'media.kind', field, messageKey: 'rule.mediaKind', params: { kind: file.kind, placement: placement.name } }];
  }
  const violations: RuleViolation[] = [];
  if (!files.formats.includes(file.format))
    violations.push({ rule: 'media.format', field, messageKey: 'rule.mediaFormat', params: { provider, format: file.format } });
  if (file.size > files.maxBytes)
    violations.push({ rule: 'media.maxBytes', field, messageKey: 'rule.mediaTooLarge', params: { provider, size: file.size, limit: files.maxBytes } });
  if ((files.minWidth !== null && file.width < files.minWidth) || (files.maxWidth !== null && file.width > files.maxWidth)) {
    violations.push({
      rule: 'media.width',
      field,
      messageKey: 'rule.imageWidth',
      params: { provider, width: file.width, min: files.minWidth ?? 0, max: files.maxWidth ?? '∞' },
    });
  }
  const ratio = file.width / file.height;
  if (placement.aspectRatio && (ratio < placement.aspectRatio.min - 0.005 || ratio > placement.aspectRatio.max + 0.005)) {
    const round = (n: number) => Math.round(n * 100) / 100;
    violations.push({
      rule: 'media.aspectRatio',
      field,
      messageKey: 'rule.aspectRatio',
      params: { provider, placement: placement.name, ratio: round(ratio), min: round(placement.aspectRatio.min), max: round(placement.aspectRatio.max) },
    });
  }
  const duration = placement.video ?? rules.video;
  if (file.durationMs !== null && duration && (file.durationMs < duration.minDurationMs || file.durationMs > duration.maxDurationMs)) {
    violations.push({
      rule: 'media.duration',
      field,
      messageKey: 'rule.videoDuration',
      params: { provider, placement: placement.name, seconds: file.durationMs / 1000, min: duration.minDurationMs / 1000, max: duration.maxDurationMs / 1000 },
    });
  }
  if (file.altText && rules.altText && [...file.altText].length > rules.altText.maxLength) {
    violations.push({
      rule: 'media.altText',
      field,
      messageKey: 'rule.altTextTooLong',
      params: { provider, length: [...file.altText].length, limit: rules.altText.maxLength },
    });
  }
  return violations;
}

/** 422 details for the violations of target `index`; a field of the post's own content (a thread part) is named as sent. */
export function violationDetails(index: number, violations: readonly RuleViolation[]): ErrorDetail[] {
  return violations.map((violation) => ({
    field: violation.field.startsWith('content.') ? violation.field : `targets[${index}].${violation.field}`,
    code: violation.rule,
    messageKey: violation.messageKey,
    params: violation.params,
  }));
}

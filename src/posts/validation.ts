// A post against the rules of each target's network (GET /providers): the same check on create, change,
// schedule, queue and publish. Each broken rule names its target and rule.
import type { ErrorDetail } from '../errors/appError.ts';
import type { MessageKey } from '../errors/messages.ts';
import { rulesOf } from '../providers/catalog.ts';

export interface TargetContent {
  provider: string;
  accountStatus: string;
  placement: string;
  caption: string;
  mediaIds: readonly string[];
}

export interface RuleViolation {
  rule: string;
  field: string;
  messageKey: MessageKey;
  params: Record<string, string | number>;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function lengthOf(text: string, unit: 'characters' | 'graphemes'): number {
  if (unit === 'characters') return [...text].length;
  let count = 0;
  for (const _ of graphemes.segment(text)) count++;
  return count;
}

const hashtagPattern = /(^|\s)#[\p{L}\p{N}_]+/gu;
const linkPattern = /\bhttps?:\/\/\S+/gi;

/** Every rule the target's content breaks (empty when it fits). Fields are relative to the target. */
export function checkTarget(target: TargetContent): RuleViolation[] {
  if (target.accountStatus !== 'ACTIVE') {
    return [{ rule: 'account.active', field: 'connectionId', messageKey: 'rule.accountInactive', params: { status: target.accountStatus } }];
  }
  const rules = rulesOf(target.provider);
  const placement = rules?.placements.find((candidate) => candidate.name === target.placement);
  if (!rules || !placement) {
    const allowed = rules?.placements.map((candidate) => candidate.name).join(', ') ?? '';
    return [{ rule: 'placement', field: 'placement', messageKey: 'rule.placement', params: { provider: target.provider, allowed } }];
  }
  const violations: RuleViolation[] = [];
  const { caption, media } = placement;
  const length = lengthOf(target.caption, caption.countedIn);
  if (length > caption.maxLength) {
    violations.push({ rule: 'caption.maxLength', field: 'caption', messageKey: 'rule.captionTooLong', params: { length, limit: caption.maxLength, unit: caption.countedIn } });
  }
  if (caption.required && target.caption.trim() === '') {
    violations.push({ rule: 'caption.required', field: 'caption', messageKey: 'rule.captionRequired', params: {} });
  }
  const hashtags = target.caption.match(hashtagPattern)?.length ?? 0;
  if (caption.maxHashtags !== null && hashtags > caption.maxHashtags) {
    violations.push({ rule: 'caption.maxHashtags', field: 'caption', messageKey: 'rule.tooManyHashtags', params: { count: hashtags, limit: caption.maxHashtags } });
  }
  const links = target.caption.match(linkPattern)?.length ?? 0;
  if (caption.maxLinks !== null && links > caption.maxLinks) {
    violations.push({ rule: 'caption.maxLinks', field: 'caption', messageKey: 'rule.tooManyLinks', params: { count: links, limit: caption.maxLinks } });
  }
  const count = target.mediaIds.length;
  if (count < media.min) violations.push({ rule: 'media.min', field: 'mediaIds', messageKey: 'rule.tooFewMedia', params: { count, limit: media.min, placement: placement.name } });
  if (count > media.max) violations.push({ rule: 'media.max', field: 'mediaIds', messageKey: 'rule.tooManyMedia', params: { count, limit: media.max, placement: placement.name } });
  if (target.caption.trim() === '' && count === 0) {
    violations.push({ rule: 'content.empty', field: 'caption', messageKey: 'rule.emptyPost', params: {} });
  }
  return violations;
}

/** 422 details for the violations of target `index`. */
export function violationDetails(index: number, violations: readonly RuleViolation[]): ErrorDetail[] {
  return violations.map((violation) => ({
    field: `targets[${index}].${violation.field}`,
    code: violation.rule,
    messageKey: violation.messageKey,
    params: violation.params,
  }));
}

// POST /ai/captions: rewrites (with a tone), translations (hashtags, mentions and links kept) and hashtags. With a
// network named, suggestions respect its caption rules: rewrites and translations that do not fit its strictest
// placement's caption limit are dropped, hashtags are capped at its hashtag limit. With `format: "thread"` a rewrite
// is cut into the parts of a thread, each within that limit (threadSplit.ts), for a text too long for one post.
import type { Actor } from '../access/actor.ts';
import type { ErrorDetail } from '../errors/appError.ts';
import { inputLimits, refuseUnlessEmpty, textWithin } from '../limits.ts';
import { checkTarget } from '../posts/validation.ts';
import { providerNames, rulesOf } from '../providers/catalog.ts';
import { captionLength } from '../posts/captionLength.ts';
import type { PlacementRules, ProviderRules } from '../providers/rules.ts';
import type { Ai } from './ai.ts';
import { aiUnavailable } from './failures.ts';
import { captionActions, type CaptionAction, type CaptionTask } from './provider.ts';
import { protect } from './protectedText.ts';
import { splitThread } from './threadSplit.ts';

export interface CaptionInput {
  action: string;
  caption: string;
  targetLanguage?: string | null;
  tone?: string | null;
  /** A network (GET /providers) whose caption rules the suggestions respect. */
  provider?: string | null;
  count?: number | null;
  /** `post` (default): suggestions as posts; `thread`: each rewrite also cut into a thread's parts (needs `provider`). */
  format?: string | null;
}

export const captionFormats = ['post', 'thread'] as const;

export const captionLimits = { tone: 100, count: { rewrite: 5, translate: 3, hashtags: 30 } } as const;
export const defaultCount: Record<CaptionAction, number> = { rewrite: 3, translate: 1, hashtags: 5 };

/** A BCP 47 language tag in canonical form, or null. */
export function languageTag(value: string): string | null {
  try {
    return Intl.getCanonicalLocales(value)[0] ?? null;
  } catch {
    return null;
  }
}

function validate(input: CaptionInput): { action: CaptionAction; count: number; targetLanguage?: string; rules?: ProviderRules; thread: boolean } {
  const details: ErrorDetail[] = [];
  const action = captionActions.find((candidate) => candidate === input.action);
  if (!action) details.push({ field: 'action', code: 'enum', messageKey: 'detail.enum', params: { allowed: captionActions.join(', ') } });
  details.push(...textWithin('caption', input.caption, inputLimits.post.caption, 1), ...textWithin('tone', input.tone, captionLimits.tone));
  const targetLanguage = input.targetLanguage ? languageTag(input.targetLanguage) : undefined;
  if (input.targetLanguage && !targetLanguage) details.push({ field: 'targetLanguage', code: 'languageTag', messageKey: 'detail.languageTag' });
  if (action === 'translate' && !input.targetLanguage) details.push({ field: 'targetLanguage', code: 'required', messageKey: 'detail.required' });
  const rules = input.provider ? rulesOf(input.provider) : undefined;
  if (input.provider && !rules) details.push({ field: 'provider', code: 'enum', messageKey: 'detail.enum', params: { allowed: providerNames.join(', ') } });
  const count = input.count ?? (action ? defaultCount[action] : 1);
  const most = action ? captionLimits.count[action] : 1;
  if (!Number.isInteger(count) || count < 1) details.push({ field: 'count', code: 'minimum', messageKey: 'detail.minimum', params: { limit: 1 } });
  else if (count > most) details.push({ field: 'count', code: 'maximum', messageKey: 'detail.maximum', params: { limit: most } });
  const format = input.format ?? 'post';
  if (!captionFormats.some((candidate) => candidate === format))
    details.push({ field: 'format', code: 'enum', messageKey: 'detail.enum', params: { allowed: captionFormats.join(', ') } });
  const thread = format === 'thread';
  // A thread is a rewrite cut to a network's limit: it needs both.
  if (thread && action && action !== 'rewrite') details.push({ field: 'action', code: 'enum', messageKey: 'detail.enum', params: { allowed: 'rewrite' } });
  if (thread && !input.provider) details.push({ field: 'provider', code: 'required', messageKey: 'detail.required' });
  refuseUnlessEmpty(details);
  return { action: action!, count, targetLanguage: targetLanguage ?? undefined, rules, thread };
}

/** The placement with the shortest caption limit: a suggestion that fits it fits everywhere on the network. */
const strictestPlacement = (rules: ProviderRules): PlacementRules =>
  rules.placements.reduce((strictest, placement) => (placement.caption.maxLength < strictest.caption.maxLength ? placement : strictest));

/** Whether the text fits the placement's caption rules, counted the way the network counts (src/posts/validation.ts). */
function fitsCaption(rules: ProviderRules, placement: PlacementRules, caption: string): boolean {
  const violations = checkTarget({ provider: rules.provider, accountStatus: 'ACTIVE', placement: placement.name, caption, media: [] });
  return !violations.some((violation) => violation.rule.startsWith('caption.'));
}

const hashtagLimit = (rules: ProviderRules): number | null => {
  const limits = rules.placements.map((placement) => placement.caption.maxHashtags).filter((limit) => limit !== null);
  return limits.length ? Math.min(...limits) : null;
};

/** Distinct hashtags (case-insensitively), each `#` and letters, digits or underscores, none already in the caption. */
function hashtagsFrom(answers: string[], caption: string, most: number): string[] {
  const seen = new Set((caption.match(/#[\p{L}\p{N}_]+/gu) ?? []).map((tag) => tag.toLowerCase()));
  const tags: string[] = [];
  for (const word of answers.flatMap((answer) => answer.split(/[\s,;]+/))) {
    const tag = `#${word.replace(/^#+/, '').replace(/[^\p{L}\p{N}_]/gu, '')}`;
    if (tag === '#' || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    tags.push(tag);
  }
  return tags.slice(0, most);
}

export async function suggestCaptions(ai: Ai, actor: Actor, input: CaptionInput) {
  const provider = ai.begin(actor, 'suggestCaptions');
  const { action, count, targetLanguage, rules, thread } = validate(input);
  const placement = rules ? strictestPlacement(rules) : undefined;
  const protectedCaption = action === 'translate' ? protect(input.caption) : undefined;
  const task: CaptionTask = {
    action,
    caption: protectedCaption?.text ?? input.caption,
    count,
    tone: input.tone ?? undefined,
    targetLanguage,
    // A thread's parts are cut to the limit afterwards: the text itself may be longer.
    maxLength: thread ? undefined : placement?.caption.maxLength,
    partLength: thread ? placement?.caption.maxLength : undefined,
    placeholders: protectedCaption?.placeholders,
  };
  const creditAction = action === 'rewrite' ? 'caption' : action;
  const { result, creditsUsed, creditsRemaining } = await ai.charged(actor, provider, creditAction, async (model) => {
    const answers = await model.suggestCaptions(task);
    if (action === 'hashtags') {
      const limit = rules ? hashtagLimit(rules) : null;
      const tags = hashtagsFrom(answers, input.caption, Math.min(count, limit ?? count));
      if (!tags.length && limit !== 0) throw aiUnavailable('no hashtag in the answer');
      return tags;
    }
    const suggestions = answers
      .map((answer) => (protectedCaption ? protectedCaption.restore(answer.trim()) : answer.trim()))
      .filter((answer): answer is string => !!answer && (thread || !rules || !placement || fitsCaption(rules, placement, answer)));
    const distinct = [...new Set(suggestions)].slice(0, count);
    // Nothing usable is a failed call, and failed calls are not charged.
    if (!distinct.length) throw aiUnavailable('no suggestion kept the text intact and within the limit');
    return distinct;
  });
  const threads =
    thread && placement ? result.map((text) => splitThread(text, placement.caption.maxLength, (part) => captionLength(part, placement.caption))) : undefined;
  return { suggestions: result, ...(threads ? { threads } : {}), creditsUsed, creditsRemaining };
}

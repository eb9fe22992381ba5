// A post's content and targets checked before anything is written: by create and change (which refuse what fails),
// and by the dry run (which reports it). One check, so the dry run finds exactly what a write would refuse.
import type { ErrorDetail } from '../errors/appError.ts';
import type { Transaction } from '../db/database.ts';
import type { Actor } from '../access/actor.ts';
import type { SocialAccount } from '../db/generated/prisma/client.ts';
import { isUuid } from '../ids.ts';
import { factsOf, mediaOf } from '../media/facts.ts';
import { checkTargetWithSettings, type RuleViolation } from './validation.ts';
import type { TargetInput } from './posts.ts';
import { linkDefaultOf, withLinkDefault } from '../links/defaults.ts';
import { threadContent, threadMediaIds, threadParts, type ThreadPart } from './threads.ts';

export interface PostContent {
  caption: string;
  mediaIds: string[];
  thread: ThreadPart[];
}

export interface TargetAssessment {
  /** The target with its network's default settings applied. */
  target: TargetInput;
  /** The workspace's account it names; null when there is none. */
  account: SocialAccount | null;
  /** Problems of the target itself: an unknown account, the same account and placement twice (422 VALIDATION_FAILED). */
  problems: ErrorDetail[];
  /** The network's rules the target breaks, checked with the post's ready media (422 PROVIDER_VALIDATION_FAILED). */
  violations: RuleViolation[];
}

export interface PostAssessment {
  /** Media files that are not the workspace's or not ready (422 VALIDATION_FAILED). */
  mediaProblems: ErrorDetail[];
  targets: TargetAssessment[];
}

type Reader = Pick<Transaction, 'socialAccount' | 'media' | 'workspace'>;

/**
 * Checks every target: its account, duplicates, the media and the network's rules. Writes nothing. `accounts`: the
 * workspace's accounts already read (by the CSV import, once for all its rows), else they are read here.
 */
export async function assessPost(
  client: Reader,
  actor: Actor,
  content: PostContent,
  targets: readonly TargetInput[],
  accounts?: ReadonlyMap<string, SocialAccount>,
): Promise<PostAssessment> {
  const byId =
    accounts ??
    new Map(
      (
        await client.socialAccount.findMany({
          where: { workspaceId: actor.workspaceId, id: { in: targets.map((t) => t.connectionId).filter(isUuid) } },
        })
      ).map((account) => [account.id, account]),
    );
  const overrides = targets.map((target) => (target.override?.thread === undefined ? null : threadParts(target.override.thread)));
  const ids = [...new Set([...content.mediaIds, ...threadMediaIds([content.thread, ...overrides.map((thread) => thread ?? [])])])];
  const media = new Map((await mediaOf(client, actor.workspaceId, ids.filter(isUuid))).map((file) => [file.id, file]));
  const problemsOf = (field: string, mediaIds: readonly string[]) =>
    mediaIds.flatMap((id, index): ErrorDetail[] => {
      const file = media.get(id);
      if (!file) return [{ field: `${field}[${index}]`, code: 'unknownMedia', messageKey: 'detail.unknownMedia' }];
      if (file.status !== 'ready')
        return [{ field: `${field}[${index}]`, code: 'mediaNotReady', messageKey: 'detail.mediaNotReady', params: { status: file.status } }];
      return [];
    });
  const partProblems = (field: string, thread: readonly ThreadPart[]) =>
    thread.flatMap((part, index) => problemsOf(`${field}[${index}].mediaIds`, part.mediaIds));
  const mediaProblems = [...problemsOf('content.mediaIds', content.mediaIds), ...partProblems('content.thread', content.thread)];
  const readyMedia = content.mediaIds.flatMap((id) => {
    const file = media.get(id);
    return file?.status === 'ready' ? [factsOf(file)] : [];
  });
  const linkDefault = await linkDefaultOf(client, actor.workspaceId);
  const seen = new Set<string>();
  return {
    mediaProblems,
    targets: targets.map((target, index) => {
      const override = overrides[index] ?? null;
      const problems: ErrorDetail[] = override ? partProblems(`targets[${index}].override.thread`, override) : [];
      const account = byId.get(target.connectionId) ?? null;
      if (!account) problems.push({ field: `targets[${index}].connectionId`, code: 'unknownAccount', messageKey: 'detail.unknownAccount' });
      const key = `${target.connectionId}/${target.placement}`;
      if (seen.has(key)) problems.push({ field: `targets[${index}]`, code: 'duplicateTarget', messageKey: 'detail.duplicateTarget' });
      seen.add(key);
      if (!account) return { target, account, problems, violations: [] };
      const { violations, settings } = checkTargetWithSettings({
        provider: account.provider,
        accountStatus: account.status,
        accountRules: account.rules,
        placement: target.placement,
        caption: target.override?.caption ?? content.caption,
        media: readyMedia,
        thread: threadContent(override ?? content.thread, override !== null, media),
        settings: withLinkDefault(target.settings, linkDefault),
      });
      return { target: { ...target, settings }, account, problems, violations };
    }),
  };
}

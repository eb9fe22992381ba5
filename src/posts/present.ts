// How a post looks to API clients (REST; the graph exposes the same fields).
import { renderMessage, type Language } from '../errors/messages.ts';
import { storedError } from '../errors/appError.ts';
import { presentSocialAccount } from '../accounts/socialAccounts.ts';
import { checkPostTarget, overrideOf, type PostDetail, type PostWithTargets } from './posts.ts';
import { postedParts, postedFirstComment, threadOf } from './threads.ts';
import { presentMedia } from '../media/library.ts';
import type { UrlSigner } from '../crypto/urlSigner.ts';

type Target = PostWithTargets['targets'][number];

/** The content checked against the target network's rules as they stand now. */
export function validationOf(post: PostDetail, target: Target, language: Language) {
  const problems = checkPostTarget(post, target).map((violation) => ({
    code: violation.rule,
    field: violation.field,
    message: renderMessage(language, violation.messageKey, violation.params),
  }));
  return { valid: problems.length === 0, problems };
}

function presentTarget(post: PostWithTargets | PostDetail, target: Target, language: Language) {
  return {
    id: target.id,
    connectionId: target.connectionId,
    provider: target.account.provider,
    placement: target.placement,
    override: overrideOf(target),
    settings: target.settings as Record<string, unknown>,
    status: target.status,
    remoteId: target.remoteId,
    remoteUrl: target.remoteUrl,
    parts: postedParts(target.parts),
    firstComment: postedFirstComment(target.firstComment),
    error: storedError(target),
    attempts: target.attempts,
    publishedAt: target.publishedAt?.toISOString() ?? null,
    waitingUntil: target.waitingUntil?.toISOString() ?? null,
    waitingReason: target.waitingReason,
    ...('media' in post ? { validation: validationOf(post, target, language) } : {}),
  };
}

/** The post's review, null when it was never submitted nor approved: who asked, who decided (a member, or a client by name). */
export function presentReview(post: PostWithTargets) {
  if (post.reviewState === null) return null;
  const decided = post.reviewDecidedById !== null || post.reviewDecidedByName !== null;
  return {
    state: post.reviewState,
    requestedBy: post.reviewRequestedById,
    decidedBy: decided ? { userId: post.reviewDecidedById, name: post.reviewDecidedByName } : null,
    decidedAt: post.reviewDecidedAt?.toISOString() ?? null,
  };
}

export interface FileLinks {
  signer: UrlSigner;
  publicBaseUrl: string;
}

/** A post with its media (GET of one post, and every write) also shows its accounts, media and each target's validation. */
export function presentPost(post: PostWithTargets | PostDetail, language: Language, links: FileLinks) {
  const accounts = [...new Map(post.targets.map((target) => [target.account.id, target.account])).values()];
  return {
    id: post.id,
    status: post.status,
    version: post.version,
    content: { caption: post.caption, mediaIds: post.mediaIds, thread: threadOf(post, { overrideThread: null }) },
    campaign: post.campaign,
    scheduledAt: post.scheduledAt?.toISOString() ?? null,
    timezone: post.timezone,
    queueId: post.queueId,
    publishedAt: post.publishedAt?.toISOString() ?? null,
    review: presentReview(post),
    createdAt: post.createdAt.toISOString(),
    updatedAt: post.updatedAt.toISOString(),
    targets: post.targets.map((target) => presentTarget(post, target, language)),
    ...('media' in post
      ? { accounts: accounts.map(presentSocialAccount), media: post.media.map((media) => presentMedia(media, links.signer, links.publicBaseUrl)) }
      : {}),
  };
}

// Review links: a post shown to someone outside the workspace (a client), who may approve it or ask for changes
// with their name and a comment. The URL carries a long random token; only its SHA-256 is stored (as API keys).
// An expired, revoked or unknown link is the same 404, which names nothing of the post.
import type { Database } from '../db/database.ts';
import type { Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import { digestSecret, newSecret } from '../access/secrets.ts';
import { notFound } from '../errors/appError.ts';
import { isUuid } from '../ids.ts';
import { inputLimits, refuseUnlessEmpty, textWithin } from '../limits.ts';
import type { Page, PageRequest } from '../pagination.ts';
import { pageOfPost, requireOwnPost } from './postRows.ts';
import type { Prisma, ReviewLink } from '../db/generated/prisma/client.ts';
import { decideLocked, decisionCommentDetails, type Decision } from './review.ts';
import { withMedia, withTargets, type PostDetail } from './posts.ts';
import { assertTransition } from './states.ts';

const hourMs = 3_600_000;

/** The page's path under the service's public address; the token follows it. */
export const reviewPagePath = '/review';

export function presentReviewLink(link: ReviewLink) {
  return { id: link.id, expiresAt: link.expiresAt.toISOString(), revokedAt: link.revokedAt?.toISOString() ?? null, createdAt: link.createdAt.toISOString() };
}

/** A new link to post `postId`; its URL is in this answer only. */
export async function createReviewLink(
  db: Database,
  actor: Actor,
  postId: string,
  input: { expiresInHours?: number | undefined },
  publicBaseUrl: string,
): Promise<ReturnType<typeof presentReviewLink> & { url: string }> {
  authorize(actor, 'createReviewLink');
  const hours = input.expiresInHours ?? inputLimits.reviewLink.defaultHours;
  if (!Number.isInteger(hours) || hours < 1 || hours > inputLimits.reviewLink.maxHours) {
    refuseUnlessEmpty([{ field: 'expiresInHours', code: 'maximum', messageKey: 'detail.maximum', params: { limit: inputLimits.reviewLink.maxHours } }]);
  }
  await requireOwnPost(db, actor, postId);
  const token = newSecret('rvw');
  const link = await db.prisma.reviewLink.create({
    data: { postId, createdById: actor.userId, tokenHash: digestSecret(token), expiresAt: new Date(Date.now() + hours * hourMs) },
  });
  return { ...presentReviewLink(link), url: `${publicBaseUrl}${reviewPagePath}/${token}` };
}

export async function listReviewLinks(db: Database, actor: Actor, postId: string, request: PageRequest): Promise<Page<ReviewLink>> {
  authorize(actor, 'listReviewLinks');
  return pageOfPost(db, actor, postId, request, (query) => db.prisma.reviewLink.findMany(query));
}

export async function revokeReviewLink(db: Database, actor: Actor, postId: string, linkId: string): Promise<void> {
  authorize(actor, 'revokeReviewLink');
  await requireOwnPost(db, actor, postId);
  if (!isUuid(linkId)) throw notFound('reviewLink');
  const link = await db.prisma.reviewLink.findFirst({ where: { id: linkId, postId } });
  if (!link) throw notFound('reviewLink');
  if (!link.revokedAt) await db.prisma.reviewLink.update({ where: { id: linkId }, data: { revokedAt: new Date() } });
}

/** The link of `token` while it is in force; 404 otherwise, the same for an unknown, expired or revoked one. */
async function linkInForce(client: Pick<Prisma.TransactionClient, 'reviewLink'>, token: string): Promise<ReviewLink> {
  const link = await client.reviewLink.findUnique({ where: { tokenHash: digestSecret(token) } });
  if (!link || link.revokedAt || link.expiresAt.getTime() <= Date.now()) throw notFound('reviewLink');
  return link;
}

/** What the page shows: the post, whatever its state (the actions answer whether it is still in review). */
export async function openReviewLink(db: Database, token: string): Promise<PostDetail> {
  const link = await linkInForce(db.prisma, token);
  return withMedia(db.prisma, await db.prisma.post.findUniqueOrThrow({ where: { id: link.postId }, include: withTargets }));
}

/** The visitor's decision, recorded by the name they gave; the post must be in review (409 otherwise). */
export async function decideByLink(db: Database, token: string, visitor: { name: string; decision: Decision }): Promise<PostDetail> {
  const name = visitor.name.trim();
  refuseUnlessEmpty([...textWithin('name', name, inputLimits.comment.authorName, 1), ...decisionCommentDetails(visitor.decision)]);
  return db.prisma.$transaction(async (tx) => {
    const link = await linkInForce(tx, token);
    const [post] = await tx.$queryRaw<{ status: string }[]>`SELECT status FROM post WHERE id = ${link.postId}::uuid FOR UPDATE`;
    if (!post) throw notFound('reviewLink');
    assertTransition(post.status, visitor.decision.kind === 'approved' ? 'approve' : 'request_changes');
    return decideLocked(tx, link.postId, { userId: null, name, reviewLinkId: link.id }, visitor.decision);
  });
}

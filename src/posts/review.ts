// Review before publishing (contract: "Review before publishing (approvals)"). With the workspace's
// `approvalRequired`, an editor's draft is submitted, then approved (back to draft, marked approved) or sent back
// with changes requested by an owner or admin; only an approved draft is scheduled, queued or published, except
// an owner's or admin's own post, whose publishing is recorded as its approval. The status table is states.ts.
import { AppError, type ErrorDetail } from '../errors/appError.ts';
import type { Database, Transaction } from '../db/database.ts';
import type { Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import { managerRoles, type Role } from '../access/scopes.ts';
import type { Post } from '../db/generated/prisma/client.ts';
import { inputLimits, refuseUnlessEmpty, textWithin } from '../limits.ts';
import { postActions, statusAllows, assertTransition, type PostAction } from './states.ts';
import { lockPost, withMedia, withTargets, type PostDetail } from './posts.ts';

export const reviewStates = ['in_review', 'approved', 'changes_requested', 'voided'] as const;
export type ReviewState = (typeof reviewStates)[number];

/** What the review rules need to know of the caller and the workspace. */
export interface ReviewContext {
  userId: string;
  role: Role;
  approvalRequired: boolean;
}

type ReviewedPost = Pick<Post, 'status' | 'createdById' | 'reviewState'>;

const publishingActions: readonly PostAction[] = ['schedule', 'queue', 'publish'];
const decisions: readonly PostAction[] = ['approve', 'request_changes'];

const isManager = (role: Role) => managerRoles.includes(role);

/**
 * Why review refuses `action` on a post whose status allows it: 'forbiddenRole', 'reviewRequired',
 * 'reviewNotRequired'; null when it may go ahead.
 */
function refusal(post: ReviewedPost, action: PostAction, context: ReviewContext): 'forbiddenRole' | 'reviewRequired' | 'reviewNotRequired' | null {
  if (decisions.includes(action)) return isManager(context.role) ? null : 'forbiddenRole';
  if (action === 'submit') return context.approvalRequired ? null : 'reviewNotRequired';
  // A post already scheduled keeps today's behaviour: it was approved, or scheduled before review was required.
  if (!publishingActions.includes(action) || !context.approvalRequired || post.status !== 'draft') return null;
  if (post.reviewState === 'approved' || publishesOwnPost(post, context)) return null;
  return 'reviewRequired';
}

/** An owner or admin publishing their own post without an approval: their action is the approval. */
function publishesOwnPost(post: ReviewedPost, context: ReviewContext): boolean {
  return isManager(context.role) && post.createdById === context.userId;
}

/** What may be done with the post now, by this caller: its status allows it, and review does (Post.actions). */
export function allowedActions(post: ReviewedPost, context: ReviewContext): PostAction[] {
  return postActions.filter((action) => statusAllows(post.status, action) && refusal(post, action, context) === null);
}

/** Throws what the state machine and review answer for `action`: 409 INVALID_STATE_TRANSITION, or 403 for a decision. */
export function assertAllowed(post: ReviewedPost, action: PostAction, context: ReviewContext): void {
  assertTransition(post.status, action);
  const reason = refusal(post, action, context);
  if (reason === 'forbiddenRole') throw new AppError('FORBIDDEN', 'forbiddenRole', { role: context.role, operation: action });
  if (reason) throw new AppError('INVALID_STATE_TRANSITION', reason, { action });
}

export async function approvalRequiredIn(client: Pick<Transaction, 'workspace'>, workspaceId: string): Promise<boolean> {
  const workspace = await client.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { approvalRequired: true } });
  return workspace.approvalRequired;
}

export async function reviewContextOf(client: Pick<Transaction, 'workspace'>, actor: Actor): Promise<ReviewContext> {
  return { userId: actor.userId, role: actor.role, approvalRequired: await approvalRequiredIn(client, actor.workspaceId) };
}

/**
 * The check before schedule, queue and publish, in their transaction: the state machine, then review. An owner's
 * or admin's own unapproved draft is approved here, by them, and says so in its comments.
 */
export async function assertMayPublish(tx: Transaction, actor: Actor, post: ReviewedPost & Pick<Post, 'id'>, action: PostAction): Promise<void> {
  const context = await reviewContextOf(tx, actor);
  assertAllowed(post, action, context);
  if (context.approvalRequired && post.status === 'draft' && post.reviewState !== 'approved') {
    await recordDecision(tx, post.id, { userId: actor.userId, name: null }, 'approved', '');
  }
}

/** Who decided: a member, or a client through a review link (a name only). */
export interface Decider {
  userId: string | null;
  name: string | null;
  reviewLinkId?: string;
}

/** Sets the post's review to `kind` as decided now by `decider`, and adds the decision to its comments. */
async function recordDecision(tx: Transaction, postId: string, decider: Decider, kind: 'approved' | 'changes_requested', text: string): Promise<void> {
  await tx.post.update({
    where: { id: postId },
    data: {
      reviewState: kind,
      reviewDecidedById: decider.userId,
      reviewDecidedByName: decider.userId ? null : decider.name,
      reviewDecidedAt: new Date(),
    },
  });
  await tx.postComment.create({
    data: { postId, authorId: decider.userId, authorName: decider.userId ? null : decider.name, reviewLinkId: decider.reviewLinkId ?? null, kind, text },
  });
}

/** Draft or changes requested → in review (editors and up, with approvalRequired). */
export async function submitPost(db: Database, actor: Actor, id: string): Promise<PostDetail> {
  authorize(actor, 'submitPost');
  return db.prisma.$transaction(async (tx) => {
    const post = await lockPost(tx, actor, id);
    assertAllowed(post, 'submit', await reviewContextOf(tx, actor));
    await tx.post.update({
      where: { id },
      data: {
        status: 'in_review',
        reviewState: 'in_review',
        reviewRequestedById: actor.userId,
        reviewDecidedById: null,
        reviewDecidedByName: null,
        reviewDecidedAt: null,
        version: { increment: 1 },
      },
    });
    return withMedia(tx, await tx.post.findUniqueOrThrow({ where: { id }, include: withTargets }));
  });
}

export type Decision = { kind: 'approved'; comment?: string | undefined } | { kind: 'changes_requested'; comment: string };

/** What is wrong with a decision's comment: longer than a comment may be, or missing where changes are requested. */
export function decisionCommentDetails(decision: Decision): ErrorDetail[] {
  const required = decision.kind === 'changes_requested' ? 1 : 0;
  return textWithin('comment', decision.comment?.trim() ?? '', inputLimits.comment.text, required);
}

/** In review → approved draft, or → changes requested (the decision is also a comment). */
export async function decideOnPost(db: Database, actor: Actor, id: string, decision: Decision): Promise<PostDetail> {
  authorize(actor, decision.kind === 'approved' ? 'approvePost' : 'requestPostChanges');
  refuseUnlessEmpty(decisionCommentDetails(decision));
  return db.prisma.$transaction(async (tx) => {
    const post = await lockPost(tx, actor, id);
    assertAllowed(post, decision.kind === 'approved' ? 'approve' : 'request_changes', await reviewContextOf(tx, actor));
    return decideLocked(tx, post.id, { userId: actor.userId, name: null }, decision);
  });
}

/** A decision on a post in review, locked in `tx` (by a member, or by a client's review link). */
export async function decideLocked(tx: Transaction, postId: string, decider: Decider, decision: Decision): Promise<PostDetail> {
  await tx.post.update({
    where: { id: postId },
    data: { status: decision.kind === 'approved' ? 'draft' : 'changes_requested', version: { increment: 1 } },
  });
  await recordDecision(tx, postId, decider, decision.kind, decision.comment?.trim() ?? '');
  return withMedia(tx, await tx.post.findUniqueOrThrow({ where: { id: postId }, include: withTargets }));
}

/**
 * What a PATCH that changes the content, targets or media does to the review: an approval (or a review under
 * way) is voided, and the post goes back to draft, out of its schedule where review is required. Null: nothing.
 */
export function voidedBy(post: Pick<Post, 'status' | 'reviewState'>, approvalRequired: boolean) {
  const inReview = post.status === 'in_review';
  if (!inReview && post.reviewState !== 'approved') return null;
  const backToDraft = inReview || (approvalRequired && post.status === 'scheduled');
  return {
    reviewState: 'voided',
    reviewDecidedById: null,
    reviewDecidedByName: null,
    reviewDecidedAt: null,
    ...(backToDraft ? { status: 'draft', scheduledAt: null, timezone: null, queueId: null, publishRunId: null } : {}),
  };
}

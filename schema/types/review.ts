// Review before publishing in the graph: the workspace's setting, a post's review and comments, the review steps
// and review links, each the domain's operation (src/posts/review.ts, comments.ts, reviewLinks.ts).
import { builder } from '../builder.ts';
import { pageRequest, toConnection } from '../connections.ts';
import { PostRef } from './posts.ts';
import { presentReview } from '../../src/posts/present.ts';
import { decideOnPost, reviewStates, submitPost } from '../../src/posts/review.ts';
import { addComment, listComments, presentComment, type CommentWithAuthor } from '../../src/posts/comments.ts';
import { createdPosition } from '../../src/posts/postRows.ts';
import { createReviewLink, listReviewLinks, type presentReviewLink, revokeReviewLink } from '../../src/posts/reviewLinks.ts';
import { getWorkspace, updateWorkspace, type WorkspaceSettings } from '../../src/workspaces/settings.ts';
import { enumValueName } from '../enums.ts';
import type { ReviewLink } from '../../src/db/generated/prisma/client.ts';

const ReviewState = builder.enumType('ReviewState', {
  description: 'A post’s review: in review, approved, changes requested, or voided by an edit of its content.',
  values: Object.fromEntries(reviewStates.map((value) => [enumValueName(value), { value }])),
});
const CommentKind = builder.enumType('CommentKind', {
  description: 'A team comment, or a review decision with its comment.',
  values: { COMMENT: { value: 'comment' }, APPROVED: { value: 'approved' }, CHANGES_REQUESTED: { value: 'changes_requested' } },
});

type Review = NonNullable<ReturnType<typeof presentReview>>;

const Decider = builder.objectRef<NonNullable<Review['decidedBy']>>('ReviewDecider').implement({
  description: 'A member (userId), or a client through a review link (the name they gave).',
  fields: (t) => ({ userId: t.exposeID('userId', { nullable: true }), name: t.exposeString('name', { nullable: true }) }),
});

const ReviewRef = builder.objectRef<Review>('Review').implement({
  fields: (t) => ({
    state: t.field({ type: ReviewState, resolve: (review) => review.state as never }),
    requestedBy: t.exposeID('requestedBy', { nullable: true, description: 'The user id of the member who submitted the post.' }),
    decidedBy: t.expose('decidedBy', { type: Decider, nullable: true }),
    decidedAt: t.expose('decidedAt', { type: 'DateTime', nullable: true }),
  }),
});

type Comment = ReturnType<typeof presentComment>;

const CommentAuthor = builder.objectRef<Comment['author']>('CommentAuthor').implement({
  fields: (t) => ({
    userId: t.exposeID('userId', { nullable: true }),
    email: t.exposeString('email', { nullable: true }),
    name: t.exposeString('name', { nullable: true }),
  }),
});

const CommentRef = builder.objectRef<CommentWithAuthor>('PostComment').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    author: t.field({ type: CommentAuthor, resolve: (comment) => presentComment(comment).author }),
    text: t.exposeString('text'),
    kind: t.field({ type: CommentKind, resolve: (comment) => comment.kind as never }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const ReviewLinkRef = builder.objectRef<ReviewLink>('ReviewLink').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const CreatedReviewLink = builder.objectRef<ReturnType<typeof presentReviewLink> & { url: string }>('CreatedReviewLink').implement({
  description: 'A new review link; its URL is shown only in this answer.',
  fields: (t) => ({
    id: t.exposeID('id'),
    url: t.exposeString('url'),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
  }),
});

const WorkspaceRef = builder.objectRef<WorkspaceSettings>('Workspace').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    approvalRequired: t.exposeBoolean('approvalRequired', {
      description: 'Whether an editor’s post is approved by an owner or admin before it is scheduled, queued or published.',
    }),
  }),
});

builder.objectFields(PostRef, (t) => ({
  review: t.field({
    type: ReviewRef,
    nullable: true,
    description: 'Its review; null when it was never submitted nor approved.',
    resolve: (post) => presentReview(post),
  }),
  comments: t.connection({
    type: CommentRef,
    description: 'The team’s comments and the review decisions, newest first.',
    authScopes: { operation: 'listPostComments' },
    resolve: async (post, args, context) => toConnection(await listComments(context.services.db, context.actor, post.id, pageRequest(args)), createdPosition),
  }),
  reviewLinks: t.connection({
    type: ReviewLinkRef,
    description: 'Its review links, newest first (owners and admins).',
    authScopes: { operation: 'listReviewLinks' },
    resolve: async (post, args, context) =>
      toConnection(await listReviewLinks(context.services.db, context.actor, post.id, pageRequest(args)), createdPosition),
  }),
}));

builder.queryField('workspace', (t) =>
  t.field({
    type: WorkspaceRef,
    description: 'The workspace’s settings.',
    authScopes: { operation: 'getWorkspace' },
    resolve: (_root, _args, context) => getWorkspace(context.services.db, context.actor),
  }),
);

builder.mutationFields((t) => ({
  updateWorkspace: t.field({
    type: WorkspaceRef,
    args: { approvalRequired: t.arg.boolean() },
    authScopes: { operation: 'updateWorkspace' },
    resolve: (_root, args, context) => updateWorkspace(context.services.db, context.actor, { approvalRequired: args.approvalRequired ?? undefined }),
  }),
  submitPost: t.field({
    type: PostRef,
    description: 'Draft or changes requested → in review (REST POST /v1/posts/{id}/submit).',
    args: { id: t.arg.id({ required: true }) },
    authScopes: { operation: 'submitPost' },
    resolve: (_root, args, context) => submitPost(context.services.db, context.actor, String(args.id)),
  }),
  approvePost: t.field({
    type: PostRef,
    description: 'In review → an approved draft (owners and admins).',
    args: { id: t.arg.id({ required: true }), comment: t.arg.string() },
    authScopes: { operation: 'approvePost' },
    resolve: (_root, args, context) =>
      decideOnPost(context.services.db, context.actor, String(args.id), { kind: 'approved', comment: args.comment ?? undefined }),
  }),
  requestPostChanges: t.field({
    type: PostRef,
    description: 'In review → changes requested, saying what to change (owners and admins).',
    args: { id: t.arg.id({ required: true }), comment: t.arg.string({ required: true }) },
    authScopes: { operation: 'requestPostChanges' },
    resolve: (_root, args, context) => decideOnPost(context.services.db, context.actor, String(args.id), { kind: 'changes_requested', comment: args.comment }),
  }),
  addPostComment: t.field({
    type: CommentRef,
    args: { postId: t.arg.id({ required: true }), text: t.arg.string({ required: true }) },
    authScopes: { operation: 'addPostComment' },
    resolve: (_root, args, context) => addComment(context.services.db, context.actor, String(args.postId), args.text),
  }),
  createReviewLink: t.field({
    type: CreatedReviewLink,
    args: { postId: t.arg.id({ required: true }), expiresInHours: t.arg.int() },
    authScopes: { operation: 'createReviewLink' },
    resolve: (_root, args, context) =>
      createReviewLink(
        context.services.db,
        context.actor,
        String(args.postId),
        { expiresInHours: args.expiresInHours ?? undefined },
        context.services.config.publicBaseUrl,
      ),
  }),
  revokeReviewLink: t.boolean({
    args: { postId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
    authScopes: { operation: 'revokeReviewLink' },
    resolve: async (_root, args, context) => {
      await revokeReviewLink(context.services.db, context.actor, String(args.postId), String(args.id));
      return true;
    },
  }),
}));

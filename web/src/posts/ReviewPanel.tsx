// A post's review and the team's comments, on the post's page and in the composer: its review state, the review
// steps its `actions` allow the person now (submit; approve or request changes with a comment), the comments with
// the decisions among them, a new comment, and for owners and admins a review link for a client (its URL shown
// once) and the links made so far, each revocable. What is allowed is the graph's answer, never a rule of its own.
import { useId, useState } from 'react';
import { useClient, useQuery, type OperationResult } from 'urql';
import type { PostAction } from '../../../schema/generated/graphql.ts';
import type { ApiError } from '../api/auth.ts';
import { apiErrorOf } from '../api/client.ts';
import { t } from '../i18n.ts';
import { formatDateTime } from '../time.ts';
import { ErrorBanner } from '../ui.tsx';
import { Button } from '../ui/Button.tsx';
import './review.css';

const ReviewQuery = `
  query PostReview($id: ID!) {
    viewer { role }
    post(id: $id) {
      id actions review { state decidedAt decidedBy { userId name } }
      comments(first: 50) { edges { node { id kind text createdAt author { userId email name } } } }
    }
  }`;
const LinksQuery = `query PostReviewLinks($id: ID!) { post(id: $id) { id reviewLinks(first: 20) { edges { node { id expiresAt revokedAt } } } } }`;
const SubmitPost = `mutation SubmitPost($id: ID!) { submitPost(id: $id) { id status version actions } }`;
const ApprovePost = `mutation ApprovePost($id: ID!, $comment: String) { approvePost(id: $id, comment: $comment) { id status version actions } }`;
const RequestChanges = `mutation RequestPostChanges($id: ID!, $comment: String!) { requestPostChanges(id: $id, comment: $comment) { id status version actions } }`;
const AddComment = `mutation AddPostComment($postId: ID!, $text: String!) { addPostComment(postId: $postId, text: $text) { id } }`;
const CreateLink = `mutation CreateReviewLink($postId: ID!) { createReviewLink(postId: $postId) { id url expiresAt } }`;
const RevokeLink = `mutation RevokeReviewLink($postId: ID!, $id: ID!) { revokeReviewLink(postId: $postId, id: $id) }`;

interface Comment {
  id: string;
  kind: 'COMMENT' | 'APPROVED' | 'CHANGES_REQUESTED';
  text: string;
  createdAt: string;
  author: { userId: string | null; email: string | null; name: string | null };
}
interface Review {
  viewer: { role: string };
  post: {
    id: string;
    actions: PostAction[];
    review: { state: string; decidedAt: string | null; decidedBy: { userId: string | null; name: string | null } | null } | null;
    comments: { edges: { node: Comment }[] };
  };
}
interface Links {
  post: { reviewLinks: { edges: { node: { id: string; expiresAt: string; revokedAt: string | null } }[] } };
}

const authorOf = (comment: Comment) => comment.author.name ?? comment.author.email ?? t('review.someone');

/** `onChanged`: the post's state changed (a review step), so the page reads it again. */
export function ReviewPanel({ postId, onChanged }: { postId: string; onChanged: () => void }) {
  const [{ data }, reload] = useQuery<Review>({ query: ReviewQuery, variables: { id: postId }, requestPolicy: 'network-only' });
  const manager = data?.viewer.role === 'OWNER' || data?.viewer.role === 'ADMIN';
  const [{ data: links }, reloadLinks] = useQuery<Links>({ query: LinksQuery, variables: { id: postId }, pause: !manager, requestPolicy: 'network-only' });
  const client = useClient();
  const [decision, setDecision] = useState('');
  const [comment, setComment] = useState('');
  const [created, setCreated] = useState<{ url: string; expiresAt: string } | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const decisionId = useId();
  const commentId = useId();

  async function run(document: string, variables: Record<string, unknown>, after: () => void) {
    setBusy(true);
    const result: OperationResult = await client.mutation(document, variables).toPromise();
    setBusy(false);
    setError(result.error ? apiErrorOf(result.error) : null);
    if (!result.error) after();
    return result;
  }
  const stepDone = () => {
    setDecision('');
    reload({ requestPolicy: 'network-only' });
    onChanged();
  };

  if (!data) return null;
  const { actions, review } = data.post;
  const comments = data.post.comments.edges.map((edge) => edge.node);
  const deciding = actions.includes('APPROVE') || actions.includes('REQUEST_CHANGES');

  return (
    <section aria-labelledby={`${decisionId}-title`} className="review-panel">
      <h2 id={`${decisionId}-title`}>{t('review.title')}</h2>
      {review && (
        <p data-testid="review-state">
          {t('review.state', { state: review.state })}
          {review.decidedBy?.name && ` ${t('review.decidedBy', { name: review.decidedBy.name })}`}
        </p>
      )}
      <ErrorBanner
        error={error}
        labelOf={(field) => (field === 'comment' ? t('review.decisionComment') : field === 'text' ? t('review.newComment') : undefined)}
      />
      {actions.includes('SUBMIT') && (
        <Button variant="primary" isDisabled={busy} onPress={() => run(SubmitPost, { id: postId }, stepDone)}>
          {t('review.submit')}
        </Button>
      )}
      {deciding && (
        <div className="review-decision">
          <label htmlFor={decisionId}>{t('review.decisionComment')}</label>
          <textarea
            id={decisionId}
            value={decision}
            maxLength={5000}
            aria-describedby={`${decisionId}-hint`}
            onChange={(event) => setDecision(event.target.value)}
          />
          <p id={`${decisionId}-hint`} className="muted">
            {t('review.decisionCommentHint')}
          </p>
          <div className="actions">
            <Button variant="primary" isDisabled={busy} onPress={() => run(ApprovePost, { id: postId, comment: decision || null }, stepDone)}>
              {t('review.approve')}
            </Button>
            <Button isDisabled={busy} onPress={() => run(RequestChanges, { id: postId, comment: decision }, stepDone)}>
              {t('review.requestChanges')}
            </Button>
          </div>
        </div>
      )}
      <h3>{t('review.comments')}</h3>
      {comments.length === 0 ? (
        <p className="muted">{t('review.noComments')}</p>
      ) : (
        <ol className="review-comments" data-testid="review-comments">
          {comments.map((entry) => (
            <li key={entry.id} className={`review-comment review-comment-${entry.kind.toLowerCase()}`}>
              <p className="review-comment-head">
                <strong>{authorOf(entry)}</strong> {t('review.kind', { kind: entry.kind })} ·{' '}
                <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
              </p>
              {entry.text && <p className="review-comment-text">{entry.text}</p>}
            </li>
          ))}
        </ol>
      )}
      <form
        className="review-new-comment"
        onSubmit={(event) => {
          event.preventDefault();
          void run(AddComment, { postId, text: comment }, () => {
            setComment('');
            reload({ requestPolicy: 'network-only' });
          });
        }}
      >
        <label htmlFor={commentId}>{t('review.newComment')}</label>
        <textarea id={commentId} value={comment} maxLength={5000} required onChange={(event) => setComment(event.target.value)} />
        <Button type="submit" isDisabled={busy || !comment.trim()}>
          {t('review.send')}
        </Button>
      </form>
      {manager && (
        <div className="review-links">
          <h3>{t('review.links')}</h3>
          <Button
            isDisabled={busy}
            onPress={() =>
              run(CreateLink, { postId }, () => reloadLinks({ requestPolicy: 'network-only' })).then((result) => {
                const link = (result.data as { createReviewLink?: { url: string; expiresAt: string } } | undefined)?.createReviewLink;
                if (link) setCreated(link);
              })
            }
          >
            {t('review.createLink')}
          </Button>
          {created && (
            <p role="status" className="review-link-created">
              {t('review.linkShownOnce', { time: formatDateTime(created.expiresAt) })}{' '}
              <input readOnly aria-label={t('review.links')} value={created.url} data-testid="review-link-url" onFocus={(event) => event.target.select()} />
            </p>
          )}
          {links && links.post.reviewLinks.edges.length > 0 && (
            <>
              <p className="muted">{t('review.linkList', { count: links.post.reviewLinks.edges.length })}</p>
              <ul>
                {links.post.reviewLinks.edges.map(({ node }) => (
                  <li key={node.id}>
                    {t('review.linkState', { revoked: node.revokedAt ? 'yes' : 'no', time: formatDateTime(node.expiresAt) })}{' '}
                    {!node.revokedAt && (
                      <Button
                        variant="quiet"
                        isDisabled={busy}
                        onPress={() => run(RevokeLink, { postId, id: node.id }, () => reloadLinks({ requestPolicy: 'network-only' }))}
                      >
                        {t('review.revoke')}
                      </Button>
                    )}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </section>
  );
}

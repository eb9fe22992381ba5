// One post: its state and the actions that state allows (a ranked toolbar), its media, and per target the network, the
// account, the caption that target publishes, its state, why it waits or failed, the link to the published item and
// a retry of a failed target, then its review and the team's comments. While it publishes, the page asks again every second.
import { useEffect, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import type { ApiError } from '../api/auth.ts';
import { apiErrorOf } from '../api/client.ts';
import { t } from '../i18n.ts';
import { formatDateTime } from '../time.ts';
import { ErrorBanner } from '../ui.tsx';
import { Avatar } from '../ui/Avatar.tsx';
import { Button } from '../ui/Button.tsx';
import { NetworkIcon } from '../ui/NetworkIcon.tsx';
import { networkLook } from '../ui/networks.ts';
import { StatusBadge, type Tone } from '../ui/StatusBadge.tsx';
import { webAddress } from '../webAddress.ts';
import type { PostState } from '../posts/actions.ts';
import { PostToolbar } from '../posts/PostToolbar.tsx';
import { ReviewPanel } from '../posts/ReviewPanel.tsx';
import '../posts/posts.css';

const PostQuery = `
  query Post($id: ID!) {
    post(id: $id) {
      id status version scheduledAt timezone actions publishedAt content { caption }
      media { id filename altText thumbnailUrl }
      targets {
        id status provider placement caption remoteUrl attempts waitingUntil waitingReason error { code message }
        account { id displayName username avatarUrl }
      }
    }
  }`;
const RetryPost = `mutation RetryPost($id: ID!, $targetId: ID) { retryPost(id: $id, targetId: $targetId) { id status } }`;

interface Target {
  id: string;
  status: string;
  provider: string;
  placement: string;
  caption: string;
  remoteUrl: string | null;
  attempts: number;
  waitingUntil: string | null;
  waitingReason: string | null;
  error: { code: string; message: string } | null;
  account: { id: string; displayName: string; username: string; avatarUrl: string | null };
}
interface Post extends PostState {
  publishedAt: string | null;
  content: { caption: string };
  media: { id: string; filename: string; altText: string | null; thumbnailUrl: string | null }[];
  targets: Target[];
}

const toneOf = (target: Target): Tone =>
  target.waitingUntil
    ? 'warning'
    : target.status === 'PUBLISHED'
      ? 'success'
      : target.status === 'FAILED'
        ? 'danger'
        : target.status === 'PUBLISHING'
          ? 'info'
          : 'neutral';

export function PostDetail({ id }: { id: string }) {
  const [{ data, error: loadError }, reload] = useQuery<{ post: Post }>({ query: PostQuery, variables: { id }, requestPolicy: 'network-only' });
  const [, retry] = useMutation(RetryPost);
  const [error, setError] = useState<ApiError | null>(null);
  const post = data?.post;
  const inProgress = post?.status === 'PUBLISHING';

  useEffect(() => {
    if (!inProgress) return;
    const timer = setInterval(() => reload({ requestPolicy: 'network-only' }), 1000);
    return () => clearInterval(timer);
  }, [inProgress, reload]);

  if (loadError) return <ErrorBanner error={apiErrorOf(loadError)} />;
  if (!post) return <p>{t('common.loading')}</p>;

  async function retryTarget(targetId: string) {
    const result = await retry({ id, targetId });
    setError(result.error ? apiErrorOf(result.error) : null);
    reload({ requestPolicy: 'network-only' });
  }

  return (
    <section aria-labelledby="post-title" className="post-page">
      <h1 id="post-title">{t('post.title')}</h1>
      <PostToolbar
        key={`${post.id}:${post.version}:${post.status}`}
        post={post}
        accounts={post.targets.map((target) =>
          t('post.targetAccount', { name: target.account.displayName, username: target.account.username, network: networkLook(target.provider).name }),
        )}
        onChanged={() => reload({ requestPolicy: 'network-only' })}
      />
      <ErrorBanner error={error} />
      <dl className="facts">
        <dt>{t('post.status')}</dt>
        <dd data-testid="post-status">{t('status.post', { status: post.status })}</dd>
        {post.scheduledAt && (
          <>
            <dt>{t('post.scheduledAt')}</dt>
            <dd data-testid="post-scheduled-at">{formatDateTime(post.scheduledAt)}</dd>
          </>
        )}
      </dl>
      {post.media.length > 0 && (
        <ul className="post-media" aria-label={t('composer.media')}>
          {post.media.map((file) => (
            <li key={file.id}>{file.thumbnailUrl ? <img src={file.thumbnailUrl} alt={file.altText ?? file.filename} /> : <span>{file.filename}</span>}</li>
          ))}
        </ul>
      )}
      <h2>{t('post.targets')}</h2>
      <ul className="post-targets">
        {post.targets.map((target) => {
          const network = networkLook(target.provider).name;
          const permalink = webAddress(target.remoteUrl);
          return (
            <li key={target.id} className="post-target" data-testid="post-target">
              <div className="post-target-head">
                <span className="post-target-network">
                  <NetworkIcon provider={target.provider} title="" />
                  {network} · {target.placement.toLowerCase()}
                </span>
                <StatusBadge tone={toneOf(target)}>{t('status.target', { status: target.status })}</StatusBadge>
              </div>
              <div className="post-target-account">
                <Avatar src={target.account.avatarUrl} name={target.account.displayName} size={32} />
                <span>
                  <strong>{target.account.displayName}</strong> <span className="muted">@{target.account.username}</span>
                </span>
              </div>
              <p className="post-target-caption">{target.caption}</p>
              {target.waitingUntil && (
                <p className="post-target-reason" data-testid="target-waiting">
                  {t('post.waitingUntil', { time: formatDateTime(target.waitingUntil) })} {target.waitingReason}
                </p>
              )}
              {target.error && <p className="post-target-reason field-error">{target.error.message}</p>}
              <div className="actions">
                {permalink && (
                  <a href={permalink} target="_blank" rel="noreferrer" className="post-target-link">
                    {t('post.openPublished', { account: target.account.displayName })}
                  </a>
                )}
                {target.status === 'FAILED' && post.actions.includes('RETRY') && (
                  <Button variant="primary" onPress={() => retryTarget(target.id)}>
                    {t('post.retryTarget', { account: target.account.displayName })}
                  </Button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      <ReviewPanel key={`${post.id}:${post.version}`} postId={post.id} onChanged={() => reload({ requestPolicy: 'network-only' })} />
    </section>
  );
}

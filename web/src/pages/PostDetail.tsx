// One post: its state, and per target the state, the link to the published item, the reason of a failure and
// a retry of failed targets. While it publishes, the page asks again every second.
import { useEffect, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import type { ApiError } from '../api/auth.ts';
import { apiErrorOf } from '../api/client.ts';
import { t } from '../i18n.ts';
import { formatDateTime } from '../time.ts';
import { Table, type Column } from '../table.tsx';
import { ErrorBanner } from '../ui.tsx';
import { webAddress } from '../webAddress.ts';
import type { Provider } from '../../../schema/generated/graphql.ts';

const PostQuery = `
  query Post($id: ID!) {
    post(id: $id) {
      id status scheduledAt timezone publishedAt content { caption }
      targets { id status provider placement remoteUrl attempts waitingUntil waitingReason error { code message } account { id displayName username } }
    }
  }`;
const RetryPost = `mutation RetryPost($id: ID!, $targetId: ID) { retryPost(id: $id, targetId: $targetId) { id status } }`;

interface Target {
  id: string;
  status: string;
  provider: Provider;
  placement: string;
  remoteUrl: string | null;
  attempts: number;
  waitingUntil: string | null;
  waitingReason: string | null;
  error: { code: string; message: string } | null;
  account: { id: string; displayName: string; username: string };
}
interface Post {
  id: string;
  status: string;
  scheduledAt: string | null;
  publishedAt: string | null;
  content: { caption: string | null };
  targets: Target[];
}

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

  const targetColumns: Column<Target>[] = [
    { header: t('post.account'), cell: (target) => `${target.account.displayName} (@${target.account.username})` },
    { header: t('composer.placement'), cell: (target) => target.placement.toLowerCase() },
    { header: t('post.status'), cell: (target) => t('status.target', { status: target.status }) },
    {
      header: t('post.result'),
      cell: (target) => (
        <>
          {webAddress(target.remoteUrl) && (
            <a href={webAddress(target.remoteUrl)!} target="_blank" rel="noreferrer">
              {t('post.openPublished', { account: target.account.displayName })}
            </a>
          )}
          {target.waitingUntil && (
            <p data-testid="target-waiting">
              {t('post.waitingUntil', { time: formatDateTime(target.waitingUntil) })} {target.waitingReason}
            </p>
          )}
          {target.error && <p className="field-error">{target.error.message}</p>}
          {target.status === 'FAILED' && (
            <button type="button" onClick={() => retryTarget(target.id)}>
              {t('post.retryTarget', { account: target.account.displayName })}
            </button>
          )}
        </>
      ),
    },
  ];

  return (
    <section aria-labelledby="post-title">
      <h1 id="post-title">{t('post.title')}</h1>
      <ErrorBanner error={error} />
      <dl className="facts">
        <dt>{t('post.status')}</dt>
        <dd data-testid="post-status">{t('status.post', { status: post.status })}</dd>
        {post.scheduledAt && (
          <>
            <dt>{t('post.scheduledAt')}</dt>
            <dd>{formatDateTime(post.scheduledAt)}</dd>
          </>
        )}
        <dt>{t('composer.caption')}</dt>
        <dd className="caption">{post.content.caption}</dd>
      </dl>
      <h2>{t('post.targets')}</h2>
      <Table columns={targetColumns} rows={post.targets} keyOf={(target) => target.id} />
    </section>
  );
}

// Feeds: add an RSS or Atom feed whose new items become posts for some accounts (drafts, or a queue's next slot),
// see each feed's state (waiting for its first poll, polling, failing with the reason and when it tries again),
// change its caption template, delete it.
import { useId, useState } from 'react';
import { useMutation, useQuery, type OperationResult } from 'urql';
import type { ApiError } from '../api/auth.ts';
import { apiErrorOf } from '../api/client.ts';
import { t } from '../i18n.ts';
import { formatDateTime } from '../time.ts';
import { detailFor, ErrorBanner, Field } from '../ui.tsx';
import { Button } from '../ui/Button.tsx';
import { ConfirmButton } from '../ui/ConfirmButton.tsx';
import { EmptyState } from '../ui/EmptyState.tsx';
import { NetworkIcon } from '../ui/NetworkIcon.tsx';
import { networkLook } from '../ui/networks.ts';
import { StatusBadge, type Tone } from '../ui/StatusBadge.tsx';

const FeedsQuery = `
  query Feeds {
    feeds(first: 100) {
      edges { node { id url connectionIds mode queueId template status lastPolledAt nextPollAt consecutiveFailures lastError { code message at } } }
    }
    socialAccounts(first: 100) { edges { node { id provider displayName username } } }
    queues(first: 100) { edges { node { id name } } }
  }`;
const CreateFeed = `
  mutation CreateFeed($url: String!, $connectionIds: [ID!]!, $mode: FeedMode!, $queueId: ID, $template: String) {
    createFeed(url: $url, connectionIds: $connectionIds, mode: $mode, queueId: $queueId, template: $template) { id }
  }`;
const UpdateFeedTemplate = `mutation UpdateFeedTemplate($id: ID!, $template: String!) { updateFeed(id: $id, template: $template) { id } }`;
const DeleteFeed = `mutation DeleteFeed($id: ID!) { deleteFeed(id: $id) }`;

type Mode = 'DRAFT' | 'QUEUE';
type Status = 'NEW' | 'ACTIVE' | 'FAILING';
interface Feed {
  id: string;
  url: string;
  connectionIds: string[];
  mode: Mode;
  queueId: string | null;
  template: string;
  status: Status;
  lastPolledAt: string | null;
  nextPollAt: string;
  consecutiveFailures: number;
  lastError: { code: string; message: string; at: string } | null;
}
interface Account {
  id: string;
  provider: string;
  displayName: string;
  username: string;
}

const statusTones: Record<Status, Tone> = { NEW: 'info', ACTIVE: 'success', FAILING: 'danger' };
const defaultTemplate = '{{title}} {{link}}';

export function Feeds() {
  const [{ data }, reload] = useQuery<{
    feeds: { edges: { node: Feed }[] };
    socialAccounts: { edges: { node: Account }[] };
    queues: { edges: { node: { id: string; name: string } }[] };
  }>({ query: FeedsQuery, requestPolicy: 'cache-and-network' });
  const [, createFeed] = useMutation(CreateFeed);
  const [, updateFeed] = useMutation(UpdateFeedTemplate);
  const [, deleteFeed] = useMutation(DeleteFeed);
  const [error, setError] = useState<ApiError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [mode, setMode] = useState<Mode>('DRAFT');
  const queueSelect = useId();
  const feeds = data?.feeds.edges.map((edge) => edge.node) ?? [];
  const accounts = data?.socialAccounts.edges.map((edge) => edge.node) ?? [];
  const queues = data?.queues.edges.map((edge) => edge.node) ?? [];
  const queueName = (id: string | null) => queues.find((queue) => queue.id === id)?.name ?? '';

  /** Runs a mutation and shows its error; true when it succeeded (the list is then reloaded). */
  async function act(pending: Promise<OperationResult>): Promise<boolean> {
    const { error: failure } = await pending;
    setError(failure ? apiErrorOf(failure) : null);
    if (failure) return false;
    reload({ requestPolicy: 'network-only' });
    return true;
  }

  return (
    <section aria-labelledby="feeds-title">
      <h1 id="feeds-title">{t('feeds.title')}</h1>
      <p className="muted">{t('feeds.intro')}</p>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          const element = event.currentTarget;
          const form = new FormData(element);
          const created = await act(
            createFeed({
              url: String(form.get('url') ?? ''),
              connectionIds: form.getAll('connectionIds').map(String),
              mode,
              queueId: mode === 'QUEUE' ? String(form.get('queueId') ?? '') || null : null,
              template: String(form.get('template') ?? '') || undefined,
            }),
          );
          if (created) {
            setNotice(t('feeds.created'));
            element.reset();
            setMode('DRAFT');
          } else setNotice(null);
        }}
      >
        <h2>{t('feeds.add')}</h2>
        <ErrorBanner error={error} />
        {notice && (
          <p role="status" className="notice">
            {notice}
          </p>
        )}
        <Field label={t('feeds.url')} name="url" type="url" required error={detailFor(error, 'url')} />
        <fieldset>
          <legend>{t('feeds.accounts')}</legend>
          {accounts.map((account) => (
            <label key={account.id}>
              <input type="checkbox" name="connectionIds" value={account.id} />
              <NetworkIcon provider={account.provider} title="" />
              {account.displayName} (@{account.username}, {networkLook(account.provider).name})
            </label>
          ))}
          {detailFor(error, 'connectionIds') && <p className="field-error">{detailFor(error, 'connectionIds')}</p>}
        </fieldset>
        <fieldset>
          <legend>{t('feeds.mode')}</legend>
          <label>
            <input type="radio" name="mode" checked={mode === 'DRAFT'} onChange={() => setMode('DRAFT')} />
            {t('feeds.modeDraft')}
          </label>
          <label>
            <input type="radio" name="mode" checked={mode === 'QUEUE'} onChange={() => setMode('QUEUE')} />
            {t('feeds.modeQueue')}
          </label>
          {mode === 'QUEUE' && (
            <div className="field">
              <label htmlFor={queueSelect}>{t('feeds.queue')}</label>
              <select id={queueSelect} name="queueId" defaultValue="">
                <option value="">{t('feeds.chooseQueue')}</option>
                {queues.map((queue) => (
                  <option key={queue.id} value={queue.id}>
                    {queue.name}
                  </option>
                ))}
              </select>
            </div>
          )}
          {detailFor(error, 'queueId') && <p className="field-error">{detailFor(error, 'queueId')}</p>}
        </fieldset>
        <Field label={t('feeds.template')} name="template" placeholder={defaultTemplate} error={detailFor(error, 'template')} />
        <p className="muted">{t('feeds.templateHint')}</p>
        <Button type="submit" variant="primary">
          {t('feeds.addButton')}
        </Button>
      </form>
      <h2>{t('feeds.list')}</h2>
      {data && feeds.length === 0 && (
        <EmptyState title={t('feeds.none')}>
          <p>{t('feeds.noneHint')}</p>
        </EmptyState>
      )}
      <ul className="endpoints">
        {feeds.map((feed) => (
          <li key={feed.id} className="card" data-feed-id={feed.id}>
            <p className="endpoint-head">
              <code id={`feed-${feed.id}-url`}>{feed.url}</code>
              <StatusBadge tone={statusTones[feed.status]}>{t('feeds.status', { status: feed.status })}</StatusBadge>
            </p>
            <p className="muted">
              {feed.mode === 'QUEUE' && feed.queueId ? t('feeds.intoQueue', { queue: queueName(feed.queueId) }) : t('feeds.asDrafts')}
              {' · '}
              {feed.lastPolledAt ? t('feeds.lastPolled', { at: formatDateTime(feed.lastPolledAt) }) : t('feeds.notPolledYet')}
              {' · '}
              {t('feeds.nextPoll', { at: formatDateTime(feed.nextPollAt) })}
            </p>
            {feed.lastError && (
              <p className="error" role="status">
                {t('feeds.lastError', { count: feed.consecutiveFailures, message: feed.lastError.message })}
              </p>
            )}
            <form
              className="actions"
              onSubmit={async (event) => {
                event.preventDefault();
                const template = String(new FormData(event.currentTarget).get('template') ?? '');
                if (await act(updateFeed({ id: feed.id, template }))) setNotice(t('feeds.saved'));
              }}
            >
              <Field label={t('feeds.templateOf', { url: feed.url })} name="template" defaultValue={feed.template} />
              <Button type="submit" aria-describedby={`feed-${feed.id}-url`}>
                {t('feeds.saveTemplate')}
              </Button>
              <ConfirmButton
                label={t('feeds.delete')}
                describedBy={`feed-${feed.id}-url`}
                title={t('feeds.deleteTitle', { url: feed.url })}
                message={t('feeds.deleteMessage')}
                confirmLabel={t('feeds.deleteConfirm')}
                onConfirm={async () => {
                  await act(deleteFeed({ id: feed.id }));
                }}
              />
            </form>
          </li>
        ))}
      </ul>
    </section>
  );
}

// Posting queues: the list with each queue's weekly slots, time zone and accounts; create, change (name, time zone,
// slots, accounts) and delete. The posts a change or a deletion leaves scheduled at their times are counted.
import { useState } from 'react';
import { useMutation, useQuery, type OperationResult } from 'urql';
import type { ApiError } from '../api/auth.ts';
import { apiErrorOf } from '../api/client.ts';
import { t } from '../i18n.ts';
import { timeZone } from '../time.ts';
import { ErrorBanner } from '../ui.tsx';
import { Button } from '../ui/Button.tsx';
import { ConfirmButton } from '../ui/ConfirmButton.tsx';
import { EmptyState } from '../ui/EmptyState.tsx';
import { QueueForm } from '../queues/QueueForm.tsx';
import { slotSummary } from '../queues/SlotEditor.tsx';
import { CreateQueue, DeleteQueue, QueuesQuery, UpdateQueue, type Account, type Queue, type QueueDraft } from '../queues/model.ts';
import '../queues/queues.css';

const newQueue: QueueDraft = { name: '', timezone: timeZone, slots: [], connectionIds: [] };

/** The queue's editable fields, as plain values (the graph's objects carry `__typename`, which inputs refuse). */
const draftOf = (queue: Queue): QueueDraft => ({
  name: queue.name,
  timezone: queue.timezone,
  slots: queue.slots.map(({ day, time }) => ({ day, time })),
  connectionIds: queue.connectionIds,
});

export function Queues() {
  const [{ data }, reload] = useQuery<{ queues: { edges: { node: Queue }[] }; socialAccounts: { edges: { node: Account }[] } }>({
    query: QueuesQuery,
    requestPolicy: 'cache-and-network',
  });
  const [, createQueue] = useMutation(CreateQueue);
  const [, updateQueue] = useMutation(UpdateQueue);
  const [, deleteQueue] = useMutation(DeleteQueue);
  /** The queue being edited: its id, `new` for a new one, or none. */
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const queues = data?.queues.edges.map((edge) => edge.node) ?? [];
  const accounts = data?.socialAccounts.edges.map((edge) => edge.node) ?? [];
  const edited = queues.find((queue) => queue.id === editing);

  /** Runs a mutation and shows its error; answers its data when it succeeded. */
  async function act<Data>(pending: Promise<OperationResult<Data>>): Promise<Data | null> {
    const { error: failure, data: answer } = await pending;
    setError(failure ? apiErrorOf(failure) : null);
    if (failure) return null;
    reload({ requestPolicy: 'network-only' });
    return answer ?? null;
  }

  async function save(draft: QueueDraft) {
    if (edited) {
      const answer = await act<{ updateQueue: { keptScheduledPosts: number } }>(updateQueue({ id: edited.id, ...draft }));
      if (answer) finish(t('queues.saved', { name: draft.name, kept: answer.updateQueue.keptScheduledPosts }));
    } else if (await act(createQueue(draft))) {
      finish(t('queues.created', { name: draft.name }));
    }
  }

  function finish(message: string) {
    setEditing(null);
    setNotice(message);
  }

  /** Opens the form for a queue (`new` for a new one), or closes it. */
  function edit(id: string | null) {
    setError(null);
    setNotice(null);
    setEditing(id);
  }

  return (
    <section aria-labelledby="queues-title">
      <div className="toolbar">
        <h1 id="queues-title">{t('queues.title')}</h1>
        {editing === null && (
          <Button variant="primary" onPress={() => edit('new')}>
            {t('queues.new')}
          </Button>
        )}
      </div>
      <p role="status">{notice}</p>
      {editing !== null && (
        <QueueForm
          key={editing}
          title={edited ? t('queues.editTitle', { name: edited.name }) : t('queues.new')}
          initial={edited ? draftOf(edited) : newQueue}
          accounts={accounts}
          error={error}
          onSave={save}
          onCancel={() => edit(null)}
        />
      )}
      {editing === null && <ErrorBanner error={error} />}
      {data && !queues.length && editing === null && (
        // The page's own "New queue" button is the next step: the empty state only says so, without a second one.
        <EmptyState title={t('queues.none')}>
          <p>{t('queues.noneHint')}</p>
        </EmptyState>
      )}
      <ul className="queues">
        {queues.map((queue) => (
          <li key={queue.id} data-queue-id={queue.id} className="card">
            <h2>{queue.name}</h2>
            <dl className="facts">
              <dt>{t('queues.timezone')}</dt>
              <dd>{queue.timezone}</dd>
              <dt>{t('queues.slots')}</dt>
              <dd>{slotSummary(queue.slots)}</dd>
              <dt>{t('queues.accounts')}</dt>
              <dd>
                {queue.connectionIds.length
                  ? queue.connectionIds.map((id) => accounts.find((account) => account.id === id)?.displayName ?? id).join(', ')
                  : t('queues.everyAccount')}
              </dd>
              <dt>{t('queues.upcoming')}</dt>
              <dd>{t('queues.upcomingCount', { count: queue.posts.length })}</dd>
            </dl>
            <div className="actions">
              <Button onPress={() => edit(queue.id)}>{t('queues.edit', { name: queue.name })}</Button>
              <ConfirmButton
                label={t('queues.delete', { name: queue.name })}
                title={t('queues.deleteTitle', { name: queue.name })}
                message={t('queues.deleteMessage', { count: queue.posts.length })}
                confirmLabel={t('queues.deleteConfirm')}
                onConfirm={async () => {
                  const answer = await act<{ deleteQueue: number }>(deleteQueue({ id: queue.id }));
                  if (answer) finish(t('queues.deleted', { name: queue.name, kept: answer.deleteQueue }));
                }}
              />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

// What happens to the composed post: saved as a draft, published now, scheduled at a time in the person's time zone,
// or added to a queue (its next free weekly slot).
import { useState } from 'react';
import { useQuery } from 'urql';
import type { ApiError } from '../api/auth.ts';
import { t } from '../i18n.ts';
import { timeZone } from '../time.ts';
import { detailFor, Field } from '../ui.tsx';

const QueuesQuery = `query ComposerQueues { queues(first: 100) { edges { node { id name timezone } } } }`;

export type Submission = { action: 'draft' } | { action: 'publish' } | { action: 'schedule'; at: string } | { action: 'queue'; queueId: string };

interface Queue {
  id: string;
  name: string;
  timezone: string;
}

export function PublishActions({ busy, error, onSubmit }: { busy: boolean; error: ApiError | null; onSubmit: (submission: Submission) => void }) {
  const [{ data }] = useQuery<{ queues: { edges: { node: Queue }[] } }>({ query: QueuesQuery, requestPolicy: 'cache-and-network' });
  const [scheduleAt, setScheduleAt] = useState('');
  const [queueId, setQueueId] = useState('');
  const queues = data?.queues.edges.map((edge) => edge.node) ?? [];
  const queueError = detailFor(error, 'queueId');

  return (
    <>
      <div className="actions">
        <button type="button" disabled={busy} onClick={() => onSubmit({ action: 'draft' })}>
          {t('composer.saveDraft')}
        </button>
        <button type="button" disabled={busy} onClick={() => onSubmit({ action: 'publish' })}>
          {t('composer.publishNow')}
        </button>
      </div>
      <div className="actions">
        <Field
          label={t('composer.scheduleAt', { timeZone })}
          type="datetime-local"
          value={scheduleAt}
          onChange={(event) => setScheduleAt(event.target.value)}
          error={detailFor(error, 'scheduledAt')}
        />
        <button type="button" disabled={busy || !scheduleAt} onClick={() => onSubmit({ action: 'schedule', at: scheduleAt })}>
          {t('composer.schedule')}
        </button>
      </div>
      <div className="actions">
        <div className="field">
          <label htmlFor="composer-queue">{t('composer.queue')}</label>
          <select id="composer-queue" value={queueId} aria-invalid={queueError ? true : undefined} onChange={(event) => setQueueId(event.target.value)}>
            <option value="">{queues.length ? t('composer.queueNone') : t('composer.noQueues')}</option>
            {queues.map((queue) => (
              <option key={queue.id} value={queue.id}>
                {t('composer.queueOption', { name: queue.name, timeZone: queue.timezone })}
              </option>
            ))}
          </select>
          {queueError && <p className="field-error">{queueError}</p>}
        </div>
        <button type="button" disabled={busy || !queueId} onClick={() => onSubmit({ action: 'queue', queueId })}>
          {t('composer.addToQueue')}
        </button>
      </div>
    </>
  );
}

// What happens to a post, ranked: one primary action (publish now, or save), the others secondary; then a date and time
// in `timeZone` to schedule (or reschedule) it at, and a queue whose next free slot it takes. Only the actions the
// post's state allows (`offered`) are shown. Used by the composer and by the post page's toolbar.
import { useId, useState } from 'react';
import { useQuery } from 'urql';
import type { ApiError } from '../api/auth.ts';
import { t } from '../i18n.ts';
import { detailFor } from '../ui.tsx';
import { Button } from '../ui/Button.tsx';
import { ConfirmButton } from '../ui/ConfirmButton.tsx';
import { formatDateTime } from '../time.ts';
import type { Submission, SubmissionAction } from '../posts/actions.ts';
import { SchedulePicker } from './SchedulePicker.tsx';
import '../posts/posts.css';

const QueuesQuery = `query ComposerQueues { queues(first: 100) { edges { node { id name timezone } } } }`;

interface Queue {
  id: string;
  name: string;
  timezone: string;
}

export interface PublishActionsProps {
  busy: boolean;
  error: ApiError | null;
  onSubmit: (submission: Submission) => void;
  offered: readonly SubmissionAction[];
  /** The main action, shown as the primary button (none: a scheduled post's page, where its time stands). */
  primary: 'save' | 'publish' | null;
  /** "Save draft" for a new post, "Save" for one being edited. */
  saveLabel: string;
  /** The zone the date and time are chosen in. */
  timeZone: string;
  /** When the post is scheduled now (ISO), to start a reschedule from. */
  scheduledAt?: string | null;
  /** A time to start from when the post has none (a day chosen on the calendar), ISO. */
  proposedAt?: string | null;
  /** The accounts a scheduled post goes to: given, Publish now asks first, naming them. */
  publishTo?: readonly string[];
}

export function PublishActions({
  busy,
  error,
  onSubmit,
  offered,
  primary,
  saveLabel,
  timeZone,
  scheduledAt = null,
  proposedAt = null,
  publishTo,
}: PublishActionsProps) {
  const id = useId();
  const [{ data }] = useQuery<{ queues: { edges: { node: Queue }[] } }>({
    query: QueuesQuery,
    requestPolicy: 'cache-and-network',
    pause: !offered.includes('queue'),
  });
  const [at, setAt] = useState<string | null>(scheduledAt ?? proposedAt);
  const [queueId, setQueueId] = useState('');
  const queues = data?.queues.edges.map((edge) => edge.node) ?? [];
  const queueError = detailFor(error, 'queueId');
  const scheduleError = detailFor(error, 'scheduledAt');
  const rank = (action: 'save' | 'publish') => (action === primary ? 'primary' : 'secondary');

  return (
    <div className="publish-actions">
      {(offered.includes('save') || offered.includes('publish')) && (
        <div className="actions">
          {offered.includes('save') && (
            <Button variant={rank('save')} isDisabled={busy} onPress={() => onSubmit({ action: 'save' })}>
              {saveLabel}
            </Button>
          )}
          {offered.includes('publish') &&
            (publishTo && scheduledAt ? (
              <ConfirmButton
                label={t('composer.publishNow')}
                title={t('postActions.publishNowTitle', { time: formatDateTime(scheduledAt) })}
                message={t('postActions.publishNowMessage', { count: publishTo.length })}
                confirmLabel={t('postActions.publishNowConfirm')}
                variant="secondary"
                isDisabled={busy}
                onConfirm={() => onSubmit({ action: 'publish' })}
              >
                <ul className="publish-to">
                  {publishTo.map((account) => (
                    <li key={account}>{account}</li>
                  ))}
                </ul>
              </ConfirmButton>
            ) : (
              <Button variant={rank('publish')} isDisabled={busy} onPress={() => onSubmit({ action: 'publish' })}>
                {t('composer.publishNow')}
              </Button>
            ))}
        </div>
      )}
      {offered.includes('schedule') && (
        <div className="actions">
          <SchedulePicker value={at} onChange={setAt} timeZone={timeZone} />
          <Button isDisabled={busy || !at} onPress={() => at && onSubmit({ action: 'schedule', at, timeZone })}>
            {scheduledAt ? t('postActions.reschedule') : t('composer.schedule')}
          </Button>
          {scheduleError && <p className="field-error">{scheduleError}</p>}
        </div>
      )}
      {offered.includes('queue') && (
        <div className="actions">
          <div className="field">
            <label htmlFor={`${id}-queue`}>{t('composer.queue')}</label>
            <select id={`${id}-queue`} value={queueId} aria-invalid={queueError ? true : undefined} onChange={(event) => setQueueId(event.target.value)}>
              <option value="">{queues.length ? t('composer.queueNone') : t('composer.noQueues')}</option>
              {queues.map((queue) => (
                <option key={queue.id} value={queue.id}>
                  {t('composer.queueOption', { name: queue.name, timeZone: queue.timezone })}
                </option>
              ))}
            </select>
            {queueError && <p className="field-error">{queueError}</p>}
          </div>
          <Button isDisabled={busy || !queueId} onPress={() => onSubmit({ action: 'queue', queueId })}>
            {t('composer.addToQueue')}
          </Button>
        </div>
      )}
    </div>
  );
}

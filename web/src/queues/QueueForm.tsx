// A queue's form, for a new queue and for changing one: name, time zone, weekly slots and the accounts it serves.
// The API's refusal is shown as it gives it, each detail next to the field it names.
import { useId, useState } from 'react';
import type { ApiError } from '../api/auth.ts';
import { t } from '../i18n.ts';
import { detailFor, ErrorBanner, Field, useFormError } from '../ui.tsx';
import { Button } from '../ui/Button.tsx';
import { NetworkIcon } from '../ui/NetworkIcon.tsx';
import { networkLook } from '../ui/networks.ts';
import type { Account, QueueDraft } from './model.ts';
import { SlotEditor } from './SlotEditor.tsx';

const knownTimeZones = Intl.supportedValuesOf('timeZone');

/** The first of the API's details on the slots (`slots`, `slots[3].time`, ...). */
const slotsDetail = (error: ApiError | null) => error?.details.find((detail) => /^slots\b/.test(detail.field))?.message;

export function QueueForm({
  title,
  initial,
  accounts,
  error: given,
  onSave,
  onCancel,
}: {
  title: string;
  initial: QueueDraft;
  accounts: Account[];
  error: ApiError | null;
  onSave: (draft: QueueDraft) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<QueueDraft>(initial);
  const { error, changed } = useFormError(given);
  const edit = (field: keyof QueueDraft, changes: Partial<QueueDraft>) => {
    changed(field);
    setDraft({ ...draft, ...changes });
  };
  const labelOf = (field: string) =>
    ({ name: t('queues.name'), timezone: t('queues.timezone'), connectionIds: t('queues.accounts') })[field] ??
    (/^slots\b/.test(field) ? t('queues.slots') : undefined);
  const timeZoneId = useId();
  const timeZones = knownTimeZones.includes(draft.timezone) ? knownTimeZones : [draft.timezone, ...knownTimeZones];
  const timeZoneError = detailFor(error, 'timezone');
  const accountsError = detailFor(error, 'connectionIds');

  return (
    <form
      className="queue-form"
      aria-label={title}
      onSubmit={(event) => {
        event.preventDefault();
        onSave(draft);
      }}
    >
      <h2>{title}</h2>
      <ErrorBanner error={error} labelOf={labelOf} />
      <Field label={t('queues.name')} value={draft.name} onChange={(event) => edit('name', { name: event.target.value })} error={detailFor(error, 'name')} />
      <div className="field">
        <label htmlFor={timeZoneId}>{t('queues.timezone')}</label>
        <select
          id={timeZoneId}
          value={draft.timezone}
          onChange={(event) => edit('timezone', { timezone: event.target.value })}
          aria-invalid={timeZoneError ? true : undefined}
          aria-describedby={timeZoneError ? `${timeZoneId}-error` : undefined}
        >
          {timeZones.map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </select>
        {timeZoneError && (
          <p id={`${timeZoneId}-error`} className="field-error">
            {timeZoneError}
          </p>
        )}
      </div>
      <SlotEditor slots={draft.slots} onChange={(slots) => edit('slots', { slots })} error={slotsDetail(error)} />
      <fieldset>
        <legend>{t('queues.accounts')}</legend>
        <p className="muted">{t('queues.accountsHint')}</p>
        {accounts.map((account) => (
          <label key={account.id}>
            <input
              type="checkbox"
              checked={draft.connectionIds.includes(account.id)}
              onChange={(event) =>
                edit('connectionIds', {
                  connectionIds: event.target.checked ? [...draft.connectionIds, account.id] : draft.connectionIds.filter((id) => id !== account.id),
                })
              }
            />
            <NetworkIcon provider={account.provider} title="" />
            {account.displayName} (@{account.username}, {networkLook(account.provider).name})
          </label>
        ))}
        {accountsError && <p className="field-error">{accountsError}</p>}
      </fieldset>
      <div className="actions">
        <Button type="submit" variant="primary">
          {t('queues.save')}
        </Button>
        <Button onPress={onCancel}>{t('queues.cancel')}</Button>
      </div>
    </form>
  );
}

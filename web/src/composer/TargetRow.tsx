// One connected account in the composer: chosen or not, its placement, its own caption if it should differ, the
// network's settings, a live counter against the placement's limit and the API's rule check for this target.
import { useId } from 'react';
import type { ApiError } from '../api/auth.ts';
import { t } from '../i18n.ts';
import { captionLength } from '../../../src/posts/captionLength.ts';
import { detailFor } from '../ui.tsx';
import { captionOf, messagesFor, type Account, type Finding, type ProviderRules, type TargetDraft } from './model.ts';
import { TargetSettings } from './TargetSettings.tsx';

interface Props {
  account: Account;
  rules: ProviderRules | undefined;
  target: TargetDraft | undefined;
  /** The target's place in `targets` (-1 when not chosen). */
  index: number;
  caption: string;
  findings: readonly Finding[];
  error: ApiError | null;
  onChange: (target: TargetDraft | undefined) => void;
}

export function TargetRow({ account, rules, target, index, caption, findings, error, onChange }: Props) {
  const overrideId = useId();
  const network = rules?.displayName ?? account.provider;
  const placementRules = rules?.placements.find((candidate) => candidate.name === target?.placement);
  const length = target && placementRules ? captionLength(captionOf(target, caption), placementRules.caption) : 0;
  const overrideError = detailFor(error, `targets[${index}].override.caption`);
  const general = findings.filter((finding) => !finding.field.startsWith(`targets[${index}].settings.`));

  return (
    <div className="target">
      <label>
        <input
          type="checkbox"
          checked={target !== undefined}
          onChange={(event) =>
            onChange(event.target.checked ? { account, placement: rules?.placements[0]?.name ?? 'feed', override: null, settings: {} } : undefined)
          }
        />
        {account.displayName} (@{account.username}, {network})
      </label>
      {target && (
        <>
          <label>
            {t('composer.placement')}
            <select value={target.placement} onChange={(event) => onChange({ ...target, placement: event.target.value })}>
              {rules?.placements.map((candidate) => (
                <option key={candidate.name} value={candidate.name}>
                  {candidate.name}
                </option>
              ))}
            </select>
          </label>
          {placementRules && (
            <span className={length > placementRules.caption.maxLength ? 'counter over' : 'counter'} aria-live="polite">
              {t('composer.counter', { length, max: placementRules.caption.maxLength })}
            </span>
          )}
          <label>
            <input
              type="checkbox"
              checked={target.override !== null}
              onChange={(event) => onChange({ ...target, override: event.target.checked ? caption : null })}
            />
            {t('composer.ownCaption', { account: `@${account.username}` })}
          </label>
          {target.override !== null && (
            <div className="field override">
              <label htmlFor={overrideId}>{t('composer.overrideFor', { account: `@${account.username}`, network })}</label>
              <textarea
                id={overrideId}
                rows={3}
                value={target.override}
                aria-invalid={overrideError ? true : undefined}
                aria-describedby={overrideError ? `${overrideId}-error` : undefined}
                onChange={(event) => onChange({ ...target, override: event.target.value })}
              />
              {overrideError && (
                <p id={`${overrideId}-error`} className="field-error">
                  {overrideError}
                </p>
              )}
            </div>
          )}
          {rules && (
            <TargetSettings
              schema={rules.settings}
              accountId={account.id}
              owner={`@${account.username}, ${network}`}
              values={target.settings}
              onChange={(settings) => onChange({ ...target, settings })}
              messagesOf={(name) => messagesFor(`settings.${name}`, findings, error, index)}
            />
          )}
          <ul className="findings" aria-live="polite">
            {general.map((finding) => (
              <li key={finding.code + finding.field}>{finding.message}</li>
            ))}
          </ul>
          {detailFor(error, `targets[${index}]`) && <p className="field-error">{detailFor(error, `targets[${index}]`)}</p>}
        </>
      )}
    </div>
  );
}

// One chosen account in the composer, as a collapsible panel: its heading shows the account, the live count against
// the placement's limit and how many problems the API's rule check finds; opened, the placement, an own caption for
// this account if it should differ, the network's settings and the findings. It opens by itself when the API's last
// refusal names something in it.
import { useId, useState } from 'react';
import { Disclosure, DisclosurePanel, Heading } from 'react-aria-components';
import type { ApiError } from '../api/auth.ts';
import { t } from '../i18n.ts';
import { captionLength, captionLimit } from '../../../src/posts/captionLength.ts';
import { detailFor } from '../ui.tsx';
import { Avatar } from '../ui/Avatar.tsx';
import { Button } from '../ui/Button.tsx';
import { StatusBadge } from '../ui/StatusBadge.tsx';
import { captionOf, messagesFor, type Finding, type ProviderRules, type TargetDraft } from './model.ts';
import { TargetSettings } from './TargetSettings.tsx';
import { LinkSettings, type LinkSettingValue } from './LinkSettings.tsx';

interface Props {
  target: TargetDraft;
  rules: ProviderRules | undefined;
  /** The target's place in `targets`. */
  index: number;
  caption: string;
  /** Whether the post has media: some networks allow a shorter caption then (Telegram). */
  withMedia: boolean;
  findings: readonly Finding[];
  error: ApiError | null;
  onChange: (target: TargetDraft) => void;
}

export function TargetRow({ target, rules, index, caption, withMedia, findings, error, onChange }: Props) {
  const overrideId = useId();
  const [opened, setOpened] = useState(false);
  const { account } = target;
  const network = rules?.displayName ?? account.provider;
  const placementRules = rules?.placements.find((candidate) => candidate.name === target.placement);
  const length = placementRules ? captionLength(captionOf(target, caption), placementRules.caption) : 0;
  const limit = placementRules ? captionLimit(placementRules.caption, withMedia) : 0;
  const over = placementRules !== undefined && length > limit;
  const overrideError = detailFor(error, `targets[${index}].override.caption`);
  const general = findings.filter((finding) => !finding.field.startsWith(`targets[${index}].settings.`));
  const path = `targets[${index}]`;
  const refused = error?.details.some((detail) => detail.field === path || detail.field.startsWith(`${path}.`)) ?? false;
  const problems = findings.length;

  return (
    <Disclosure className="target" isExpanded={opened || refused} onExpandedChange={setOpened}>
      <Heading level={3} className="target-heading">
        <Button slot="trigger" variant="quiet" className="target-trigger">
          <span className="target-chevron" aria-hidden="true" />
          <span aria-hidden="true">
            <Avatar src={account.avatarUrl} name={account.displayName} provider={account.provider} size={28} />
          </span>
          <span className="target-name">{t('composer.targetOf', { account: `@${account.username}`, network })}</span>
        </Button>
      </Heading>
      <span className="target-summary">
        {placementRules && <span className={over ? 'counter over' : 'counter'}>{t('composer.counter', { length, max: limit })}</span>}
        {problems > 0 && <StatusBadge tone="danger">{t('composer.findingCount', { count: problems })}</StatusBadge>}
      </span>
      <DisclosurePanel className="target-panel">
        <label className="field">
          {t('composer.placement')}
          <select value={target.placement} onChange={(event) => onChange({ ...target, placement: event.target.value })}>
            {rules?.placements.map((candidate) => (
              <option key={candidate.name} value={candidate.name}>
                {candidate.name}
              </option>
            ))}
          </select>
        </label>
        <label className="check">
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
        <LinkSettings
          value={target.settings.links as LinkSettingValue | undefined}
          onChange={(links) => onChange({ ...target, settings: { ...target.settings, links } })}
          messages={messagesFor('settings.links', findings, error, index)}
        />
        <ul className="findings" aria-live="polite">
          {general.map((finding) => (
            <li key={finding.code + finding.field}>{finding.message}</li>
          ))}
        </ul>
        {detailFor(error, path) && <p className="field-error">{detailFor(error, path)}</p>}
      </DisclosurePanel>
    </Disclosure>
  );
}

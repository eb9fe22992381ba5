// A target's `links` setting in the composer: shorten the caption's links, and the UTM parameters added to them. It
// shows the workspace's default until the person changes something (then the target carries its own setting), and
// can make what it shows the workspace's default (owners and admins; the API's refusal is shown otherwise).
import { useId, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { apiErrorOf } from '../api/client.ts';
import { t } from '../i18n.ts';
import { Button } from '../ui/Button.tsx';

export interface LinkSettingValue {
  shorten: boolean;
  utm: { source?: string; medium?: string; campaign?: string };
}

const utmFields = ['source', 'medium', 'campaign'] as const;

const LinkDefaults = `query LinkDefaults { linkDefaults { shorten utm { source medium campaign } } }`;
const SetLinkDefaults = `mutation SetLinkDefaults($shorten: Boolean, $utm: UtmInput) {
  setLinkDefaults(shorten: $shorten, utm: $utm) { shorten utm { source medium campaign } }
}`;

type Shown = { shorten: boolean; utm: { source?: string | null; medium?: string | null; campaign?: string | null } };

/** The GraphQL answer's nulls left out: the API's setting names only the parameters it adds. */
function settingOf(shown: Shown): LinkSettingValue {
  return { shorten: shown.shorten, utm: Object.fromEntries(utmFields.flatMap((field) => (shown.utm[field] ? [[field, shown.utm[field]]] : []))) };
}

interface Props {
  value: LinkSettingValue | undefined;
  onChange: (value: LinkSettingValue) => void;
  messages: string[];
}

export function LinkSettings({ value, onChange, messages }: Props) {
  const id = useId();
  const [defaults, reexecute] = useQuery<{ linkDefaults: Shown }>({ query: LinkDefaults });
  const [saving, setDefaults] = useMutation(SetLinkDefaults);
  const [saved, setSaved] = useState<string | null>(null);
  const fallback = defaults.data ? settingOf(defaults.data.linkDefaults) : { shorten: false, utm: {} };
  const shown = value ?? fallback;
  const change = (next: LinkSettingValue) => {
    setSaved(null);
    onChange(next);
  };
  const setUtm = (field: (typeof utmFields)[number], text: string) => {
    const utm = { ...shown.utm };
    if (text.trim()) utm[field] = text;
    else delete utm[field];
    change({ ...shown, utm });
  };
  const makeDefault = async () => {
    const result = await setDefaults({ shorten: shown.shorten, utm: shown.utm });
    setSaved(result.error ? (apiErrorOf(result.error)?.message ?? result.error.message) : t('composer.linksDefaultSaved'));
    if (!result.error) reexecute({ requestPolicy: 'network-only' });
  };

  return (
    <fieldset className="settings links-setting">
      <legend>{t('composer.links')}</legend>
      <p id={`${id}-hint`} className="muted hint">
        {t(value ? 'composer.linksOwn' : 'composer.linksDefault')}
      </p>
      <label className="check">
        <input type="checkbox" checked={shown.shorten} onChange={(event) => change({ ...shown, shorten: event.target.checked })} />
        {t('composer.linksShorten')}
      </label>
      {utmFields.map((field) => (
        <label key={field} className="field">
          {t('composer.linksUtm', { field })}
          <input type="text" maxLength={200} value={shown.utm[field] ?? ''} onChange={(event) => setUtm(field, event.target.value)} />
        </label>
      ))}
      {messages.length > 0 && (
        <ul className="field-error findings">
          {messages.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
      <Button variant="secondary" onPress={makeDefault} isDisabled={saving.fetching}>
        {t('composer.linksMakeDefault')}
      </Button>
      {saved && (
        <p role="status" className="muted">
          {saved}
        </p>
      )}
    </fieldset>
  );
}

// A network's options for one target, as a form generated from the JSON Schema the network publishes
// (`providers` → settings): a choice is a select, a yes/no a checkbox, a set of choices a group of checkboxes, a list
// of words one text field (comma-separated), text a text field, each labelled by the schema's `title` where the network
// gives one (TikTok's "Your brand", "Branded content"), and the schema's own `description` (TikTok's Music Usage
// Confirmation) shown under the form, before posting. What is left alone is not sent: the network's default applies. The API's findings and details for a setting are shown under its field. Where the network decides a
// setting per account (Pinterest's boards, TikTok's privacy levels and switches), the account's own options are read
// (SocialAccount.settingOptions): a select of its choices by label with its default preselected (none where the
// network has the person choose: TikTok's privacy level), and a setting the account cannot use shown disabled with
// the reason. Options that depend on another setting (Reddit's flairs on the subreddit) are read again for its
// value once the person stops typing it.
import { useId } from 'react';
import { useQuery } from 'urql';
import { apiErrorOf } from '../api/client.ts';
import { useDebounced } from '../media/useDebounced.ts';
import { t } from '../i18n.ts';
import type { AccountSettingOption } from '../../../schema/generated/graphql.ts';
import type { SettingSchema, SettingsSchema } from './model.ts';

interface Props {
  schema: SettingsSchema;
  /** The account whose own options (boards, privacy levels) the form offers, where its network has them. */
  accountId?: string;
  /** Who the settings are for, in the group's name (account and network). */
  owner: string;
  values: Record<string, unknown>;
  onChange: (values: Record<string, unknown>) => void;
  /** The messages about `settings.<name>`. */
  messagesOf: (name: string) => string[];
}

const AccountOptions = `query AccountSettingOptions($id: ID!, $subreddit: String) {
  socialAccount(id: $id) { id settingOptions(subreddit: $subreddit) { name choices { value label } default unavailable } }
}`;
type SettingOption = Pick<AccountSettingOption, 'name' | 'choices' | 'default' | 'unavailable'>;

/** `spoilerText` → `Spoiler text`: the schema's property names are all a network gives as a label. */
const labelOf = (name: string) => name.replace(/[A-Z]/g, (capital) => ` ${capital.toLowerCase()}`).replace(/^./, (first) => first.toUpperCase());

function Messages({ id, messages }: { id: string; messages: string[] }) {
  if (!messages.length) return null;
  return (
    <ul id={id} className="field-error findings">
      {messages.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </ul>
  );
}

function Setting({
  name,
  schema,
  option,
  required,
  value,
  set,
  messages,
}: {
  name: string;
  schema: SettingSchema;
  /** The account's own options for this setting, where its network has them. */
  option: SettingOption | undefined;
  required: boolean;
  value: unknown;
  set: (value: unknown) => void;
  messages: string[];
}) {
  const id = useId();
  const shown = schema.title ?? labelOf(name);
  const label = required ? t('composer.settingRequired', { name: shown }) : shown;
  const unavailable = option?.unavailable ?? undefined;
  const described =
    [schema.description ? `${id}-hint` : '', unavailable ? `${id}-unavailable` : '', messages.length ? `${id}-messages` : ''].filter(Boolean).join(' ') ||
    undefined;
  const hint = (
    <>
      {schema.description && (
        <span id={`${id}-hint`} className="muted hint">
          {schema.description}
        </span>
      )}
      {unavailable && (
        <p id={`${id}-unavailable`} className="muted hint">
          {unavailable}
        </p>
      )}
    </>
  );
  const current = unavailable ? option?.default : (value ?? option?.default ?? schema.default);
  const choices = schema.items?.enum;
  const options = option?.choices ?? schema.enum?.map((choice) => ({ value: String(choice), label: String(choice) }));

  if (schema.type === 'array' && choices) {
    const chosen = Array.isArray(current) ? current : [];
    return (
      <fieldset className="setting" aria-describedby={described}>
        <legend>{label}</legend>
        {hint}
        {choices.map((choice) => (
          <label key={String(choice)}>
            <input
              type="checkbox"
              checked={chosen.includes(choice)}
              onChange={(event) => set(event.target.checked ? [...chosen, choice] : chosen.filter((other) => other !== choice))}
            />
            {String(choice)}
          </label>
        ))}
        <Messages id={`${id}-messages`} messages={messages} />
      </fieldset>
    );
  }
  if (schema.type === 'boolean') {
    return (
      <div className="setting">
        <label>
          <input
            type="checkbox"
            checked={current === true}
            disabled={unavailable !== undefined}
            aria-describedby={described}
            onChange={(event) => set(event.target.checked)}
          />
          {label}
        </label>
        {hint}
        <Messages id={`${id}-messages`} messages={messages} />
      </div>
    );
  }
  const invalid = messages.length ? true : undefined;
  return (
    <div className="setting field">
      <label htmlFor={id}>{label}</label>
      {options ? (
        <select
          id={id}
          value={String(current ?? '')}
          disabled={unavailable !== undefined}
          aria-invalid={invalid}
          aria-describedby={described}
          onChange={(event) => set(event.target.value)}
        >
          {current === undefined && <option value="">{t('composer.settingUnset')}</option>}
          {options.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      ) : schema.type === 'array' ? (
        <input
          id={id}
          value={Array.isArray(current) ? current.join(', ') : ''}
          aria-invalid={invalid}
          aria-describedby={described}
          placeholder={t('composer.settingList')}
          onChange={(event) =>
            set(
              event.target.value
                .split(',')
                .map((word) => word.trim())
                .filter(Boolean),
            )
          }
        />
      ) : (
        <input
          id={id}
          type={schema.type === 'integer' || schema.type === 'number' ? 'number' : schema.format === 'uri' ? 'url' : 'text'}
          value={current === undefined ? '' : String(current)}
          aria-invalid={invalid}
          aria-describedby={described}
          onChange={(event) =>
            set(event.target.value !== '' && (schema.type === 'integer' || schema.type === 'number') ? Number(event.target.value) : event.target.value)
          }
        />
      )}
      {hint}
      <Messages id={`${id}-messages`} messages={messages} />
    </div>
  );
}

export function TargetSettings({ schema, accountId, owner, values, onChange, messagesOf }: Props) {
  // Asked only for a value the setting would take: a name half typed is not sent.
  const subredditPattern = schema.properties?.subreddit?.pattern;
  const typedSubreddit =
    typeof values.subreddit === 'string' && subredditPattern && new RegExp(subredditPattern).test(values.subreddit) ? values.subreddit : '';
  const subreddit = useDebounced(typedSubreddit, 600) || null;
  const [{ data, error }] = useQuery<{ socialAccount: { settingOptions: SettingOption[] | null } | null }>({
    query: AccountOptions,
    variables: { id: accountId, subreddit },
    pause: !accountId,
  });
  const properties = Object.entries(schema.properties ?? {});
  if (!properties.length) return null;
  const optionOf = (name: string) => data?.socialAccount?.settingOptions?.find((option) => option.name === name);
  return (
    <fieldset className="settings">
      <legend>{t('composer.settingsFor', { owner })}</legend>
      {error && <p className="field-error">{t('composer.settingOptionsFailed', { reason: apiErrorOf(error).message })}</p>}
      {properties.map(([name, property]) => (
        <Setting
          key={name}
          name={name}
          schema={property}
          option={optionOf(name)}
          required={schema.required?.includes(name) ?? false}
          value={values[name]}
          messages={messagesOf(name)}
          set={(value) => {
            const { [name]: _previous, ...others } = values;
            onChange(value === '' ? others : { ...others, [name]: value });
          }}
        />
      ))}
      {schema.description && <p className="muted settings-consent">{schema.description}</p>}
    </fieldset>
  );
}

// A network's options for one target, as a form generated from the JSON Schema the network publishes
// (`providers` → settings): a choice is a select, a yes/no a checkbox, a set of choices a group of checkboxes, a list
// of words one text field (comma-separated), text a text field. What is left alone is not sent: the network's default
// applies. The API's findings and details for a setting are shown under its field.
import { useId } from 'react';
import { t } from '../i18n.ts';
import type { SettingSchema, SettingsSchema } from './model.ts';

interface Props {
  schema: SettingsSchema;
  /** Who the settings are for, in the group's name (account and network). */
  owner: string;
  values: Record<string, unknown>;
  onChange: (values: Record<string, unknown>) => void;
  /** The messages about `settings.<name>`. */
  messagesOf: (name: string) => string[];
}

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
  required,
  value,
  set,
  messages,
}: {
  name: string;
  schema: SettingSchema;
  required: boolean;
  value: unknown;
  set: (value: unknown) => void;
  messages: string[];
}) {
  const id = useId();
  const label = required ? t('composer.settingRequired', { name: labelOf(name) }) : labelOf(name);
  const described = [schema.description ? `${id}-hint` : '', messages.length ? `${id}-messages` : ''].filter(Boolean).join(' ') || undefined;
  const hint = schema.description && (
    <span id={`${id}-hint`} className="muted hint">
      {schema.description}
    </span>
  );
  const current = value ?? schema.default;
  const choices = schema.items?.enum;

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
          <input type="checkbox" checked={current === true} aria-describedby={described} onChange={(event) => set(event.target.checked)} />
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
      {schema.enum ? (
        <select id={id} value={String(current ?? '')} aria-invalid={invalid} aria-describedby={described} onChange={(event) => set(event.target.value)}>
          {current === undefined && <option value="">{t('composer.settingUnset')}</option>}
          {schema.enum.map((choice) => (
            <option key={String(choice)} value={String(choice)}>
              {String(choice)}
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

export function TargetSettings({ schema, owner, values, onChange, messagesOf }: Props) {
  const properties = Object.entries(schema.properties ?? {});
  if (!properties.length) return null;
  return (
    <fieldset className="settings">
      <legend>{t('composer.settingsFor', { owner })}</legend>
      {properties.map(([name, property]) => (
        <Setting
          key={name}
          name={name}
          schema={property}
          required={schema.required?.includes(name) ?? false}
          value={values[name]}
          messages={messagesOf(name)}
          set={(value) => {
            const { [name]: _previous, ...others } = values;
            onChange(value === '' ? others : { ...others, [name]: value });
          }}
        />
      ))}
    </fieldset>
  );
}

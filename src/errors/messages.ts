// The API's messages in the four languages it speaks. Codes never change with language; only these texts do.
// The texts are ICU MessageFormat in src/i18n/<language>.json under `api.` (the dashboard's words share those files).
import { IntlMessageFormat } from 'intl-messageformat';
import type { MessageParams } from './appError.ts';
import en from '../i18n/en.json' with { type: 'json' };
import de from '../i18n/de.json' with { type: 'json' };
import fr from '../i18n/fr.json' with { type: 'json' };
import es from '../i18n/es.json' with { type: 'json' };

export const languages = ['en', 'de', 'fr', 'es'] as const;
export type Language = (typeof languages)[number];

type CatalogKey = keyof typeof en;
/** The API's keys without their `api.` namespace: a key missing from the catalogs is a compile error where it is used. */
export type MessageKey = WithoutNamespace<CatalogKey>;
type WithoutNamespace<Key> = Key extends `api.${infer Rest}` ? Rest : never;
export const messageKeys = Object.keys(en).flatMap((key) => (key.startsWith('api.') ? [key.slice('api.'.length) as MessageKey] : []));

/** Each catalog must have every key of English: a missing one fails to compile here. */
const catalogs: Record<Language, Record<CatalogKey, string>> = { en, de, fr, es };

type MessageElement = ReturnType<IntlMessageFormat['getAst']>[number];

/** The names of a message's arguments, including those inside plural and select branches. */
export function argumentNames(elements: MessageElement[], names = new Set<string>()): Set<string> {
  for (const element of elements) {
    if ('value' in element && typeof element.value === 'string' && element.type !== 0 /* literal */) names.add(element.value);
    if ('options' in element) for (const option of Object.values(element.options)) argumentNames(option.value, names);
  }
  return names;
}

interface CompiledMessage {
  format: IntlMessageFormat;
  /** Stand-ins for arguments a caller left out: the message then shows `{name}` rather than failing on an error path. */
  placeholders: Record<string, string>;
}

/** Compiled once per language and key, on first use: rendering is on every error path. */
const compiled: Record<Language, Map<MessageKey, CompiledMessage>> = { en: new Map(), de: new Map(), fr: new Map(), es: new Map() };

function compileMessage(language: Language, key: MessageKey): CompiledMessage {
  let message = compiled[language].get(key);
  if (!message) {
    const format = new IntlMessageFormat(catalogs[language][`api.${key}` as const], language);
    const placeholders = Object.fromEntries([...argumentNames(format.getAst())].map((name) => [name, `{${name}}`]));
    message = { format, placeholders };
    compiled[language].set(key, message);
  }
  return message;
}

export function renderMessage(language: Language, key: MessageKey, params: MessageParams = {}): string {
  const { format, placeholders } = compileMessage(language, key);
  return String(format.format({ ...placeholders, ...params }));
}

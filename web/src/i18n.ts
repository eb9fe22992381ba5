// The dashboard's own words, in the browser's language (en, de, fr, es), from the ICU MessageFormat catalogs it
// shares with the API (src/i18n/<language>.json). Only the person's language is fetched: `loadMessages()` runs
// before the first render, so `t()` stays synchronous. The API's messages come already localized (the browser
// sends Accept-Language) and are shown as given.
import { IntlMessageFormat } from 'intl-messageformat';
import type en from '../../src/i18n/en.json';

/** The dashboard's keys; the catalogs' `api.*` keys are the API's. */
export type MessageKey = Exclude<keyof typeof en, `api.${string}`>;
type Catalog = Record<keyof typeof en, string>;

const catalogLoaders: Record<string, () => Promise<{ default: Catalog }>> = {
  en: () => import('../../src/i18n/en.json'),
  de: () => import('../../src/i18n/de.json'),
  fr: () => import('../../src/i18n/fr.json'),
  es: () => import('../../src/i18n/es.json'),
};

function pickLanguage(preferred: readonly string[]): string {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0] ?? '';
    if (base in catalogLoaders) return base;
  }
  return 'en';
}

export const language = pickLanguage(navigator.languages.length ? navigator.languages : [navigator.language]);
let catalog: Catalog | undefined;
const formats = new Map<MessageKey, IntlMessageFormat>();

/** Fetches the person's catalog; call once and await it before rendering. */
export async function loadMessages(): Promise<void> {
  catalog = (await catalogLoaders[language]!()).default;
}

/** Whether the catalog has words of its own for `key` (a credential field a network names: `accounts.<field>`). */
export function known(key: string): key is MessageKey {
  return catalog !== undefined && Object.hasOwn(catalog, key) && !key.startsWith('api.');
}

export function t(key: MessageKey, values?: Record<string, string | number>): string {
  if (!catalog) throw new Error('t() was called before loadMessages() finished');
  let format = formats.get(key);
  if (!format) {
    format = new IntlMessageFormat(catalog[key], language);
    formats.set(key, format);
  }
  return String(format.format(values));
}

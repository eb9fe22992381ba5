// The dashboard's own words, in the browser's language (en, de, fr, es), as ICU MessageFormat catalogs.
// The API's messages come already localized (the browser sends Accept-Language) and are shown as given.
import { IntlMessageFormat } from 'intl-messageformat';
import en from '../../src/i18n/en.json';
import de from '../../src/i18n/de.json';
import fr from '../../src/i18n/fr.json';
import es from '../../src/i18n/es.json';

export type MessageKey = keyof typeof en;
type Catalog = Record<MessageKey, string>;

const catalogs: Record<string, Catalog> = { en, de, fr, es };

function pickLanguage(preferred: readonly string[]): string {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0] ?? '';
    if (base in catalogs) return base;
  }
  return 'en';
}

export const language = pickLanguage(navigator.languages.length ? navigator.languages : [navigator.language]);
const catalog = catalogs[language] ?? en;
const formats = new Map<MessageKey, IntlMessageFormat>();

export function t(key: MessageKey, values?: Record<string, string | number>): string {
  let format = formats.get(key);
  if (!format) {
    format = new IntlMessageFormat(catalog[key], language);
    formats.set(key, format);
  }
  return String(format.format(values));
}

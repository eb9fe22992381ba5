// One ICU MessageFormat catalog per language (src/i18n/<language>.json), shared by the API (`api.*`) and the dashboard.
import { describe, expect, it } from 'vitest';
import { IntlMessageFormat } from 'intl-messageformat';
import en from '../../src/i18n/en.json' with { type: 'json' };
import de from '../../src/i18n/de.json' with { type: 'json' };
import fr from '../../src/i18n/fr.json' with { type: 'json' };
import es from '../../src/i18n/es.json' with { type: 'json' };
import { argumentNames, languages, messageKeys, renderMessage, type Language } from '../../src/errors/messages.ts';
import { missingThings } from '../../src/errors/appError.ts';

const catalogs: Record<Language, Record<string, string>> = { en, de, fr, es };
const otherLanguages = languages.filter((language) => language !== 'en');

type MessageElement = ReturnType<IntlMessageFormat['getAst']>[number];

/** The words a message writes itself (not its arguments' values), across every plural and select branch. */
function literalText(elements: MessageElement[]): string {
  return elements
    .map((element) =>
      element.type === 0
        ? element.value
        : 'options' in element
          ? Object.values(element.options)
              .map((option) => literalText(option.value))
              .join(' ')
          : ' ',
    )
    .join('');
}

const parsed = (language: Language, key: string) => new IntlMessageFormat(catalogs[language][key]!, language).getAst();

/** Unit words that are English only (not also German, French or Spanish, as "bytes" or "minutes" are). */
const englishWords = /\b(characters?|graphemes|seconds?|hours?|days?|items?)\b/i;

describe('message catalogs', () => {
  it('have exactly the same keys in every language', () => {
    for (const language of otherLanguages) expect(Object.keys(catalogs[language]).sort()).toEqual(Object.keys(en).sort());
  });

  it('hold the API messages under api., apart from the dashboard words', () => {
    expect(messageKeys.length).toBeGreaterThan(100);
    expect(messageKeys).toContain('notFound');
    expect(Object.keys(en).filter((key) => !key.startsWith('api.')).length).toBeGreaterThan(0);
  });

  it('compile every message as ICU MessageFormat, with the same argument names as English', () => {
    const differing = otherLanguages.flatMap((language) =>
      Object.keys(en)
        .filter((key) => [...argumentNames(parsed(language, key))].sort().join() !== [...argumentNames(parsed('en', key))].sort().join())
        .map((key) => `${language} ${key}`),
    );
    expect(differing).toEqual([]);
  });

  it('have no English unit words in the German, French and Spanish API messages, and take no unit as an argument', () => {
    const english = otherLanguages.flatMap((language) =>
      messageKeys.filter((key) => englishWords.test(literalText(parsed(language, `api.${key}`)))).map((key) => `${language} ${key}`),
    );
    expect(english).toEqual([]);
    const withUnit = languages.flatMap((language) =>
      messageKeys.filter((key) => argumentNames(parsed(language, `api.${key}`)).has('unit')).map((key) => `${language} ${key}`),
    );
    expect(withUnit).toEqual([]);
  });
});

describe('rendering', () => {
  it('says one and many in each language', () => {
    const few = (language: Language, limit: number) => renderMessage(language, 'rule.tooFewMedia', { placement: 'reel', limit, count: 0 });
    expect([few('en', 1), few('en', 2)]).toEqual([
      'A reel needs at least 1 media file; the post has 0.',
      'A reel needs at least 2 media files; the post has 0.',
    ]);
    expect([few('de', 1), few('de', 2)]).toEqual([
      'Ein reel braucht mindestens 1 Mediendatei; der Beitrag hat 0.',
      'Ein reel braucht mindestens 2 Mediendateien; der Beitrag hat 0.',
    ]);
    expect([few('fr', 1), few('fr', 2)]).toEqual([
      'Un reel demande au moins 1 fichier média ; la publication en a 0.',
      'Un reel demande au moins 2 fichiers média ; la publication en a 0.',
    ]);
    expect([few('es', 1), few('es', 2)]).toEqual([
      'Un reel necesita al menos 1 archivo multimedia; la publicación tiene 0.',
      'Un reel necesita al menos 2 archivos multimedia; la publicación tiene 0.',
    ]);
    expect(renderMessage('en', 'rateLimited', { limit: 120, seconds: 1 })).toBe('Too many requests: the limit is 120 per minute. Retry in 1 second.');
    expect(renderMessage('de', 'invalidRequest', { count: 1 })).toBe('Die Anfrage passt nicht zum Endpunkt: 1 Feld ist fehlerhaft, siehe details.');
  });

  it('writes numbers and units as each language does', () => {
    const tooLarge = (language: Language) => renderMessage(language, 'rule.mediaTooLarge', { size: 20971521, limit: 20971520, provider: 'bluesky' });
    expect(tooLarge('en')).toBe('The file is 20,971,521 bytes; bluesky takes at most 20,971,520 bytes.');
    expect(tooLarge('de')).toBe('Die Datei hat 20.971.521 Byte; bluesky nimmt höchstens 20.971.520 Byte.');
    expect(tooLarge('fr')).toBe('Le fichier fait 20\u202f971\u202f521\u00a0octets ; bluesky accepte au plus 20\u202f971\u202f520\u00a0octets.');
    expect(renderMessage('de', 'rule.videoDuration', { seconds: 61.5, min: 3, max: 60, provider: 'tiktok', placement: 'video' })).toBe(
      'Das Video dauert 61,5 Sekunden; ein video auf tiktok erlaubt 3 bis 60 Sekunden.',
    );
    expect(renderMessage('es', 'detail.tooLarge', { limit: 1024 })).toBe('El cuerpo supera 1024 bytes.');
  });

  it('names what is missing in the language asked for, for everything a 404 can name', () => {
    expect(renderMessage('en', 'notFound', { kind: 'mediaFile' })).toBe('No such media file in this workspace.');
    expect(renderMessage('de', 'notFound', { kind: 'mediaFile' })).toBe('Diese Mediendatei gibt es in diesem Workspace nicht.');
    expect(renderMessage('es', 'rule.mediaKind', { kind: 'video', placement: 'story' })).toBe('Un story no admite vídeos.');
    expect(renderMessage('en', 'notFound', { kind: 'apiKey' })).toBe('No such API key in this workspace.');
    const untranslated = otherLanguages.flatMap((language) =>
      missingThings.filter((kind) => renderMessage(language, 'notFound', { kind }).includes(kind)).map((kind) => `${language} ${kind}`),
    );
    expect(untranslated).toEqual([]);
  });

  it('shows an argument a caller left out by its name rather than failing', () => {
    expect(renderMessage('en', 'detail.unknownScope')).toBe('Unknown scope {scope}.');
  });
});

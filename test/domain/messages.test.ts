// The message catalogs: each language says its units in its own words, and names things in its own words.
import { describe, expect, it } from 'vitest';
import { languages, messageKeys, renderMessage } from '../../src/errors/messages.ts';

/** Unit and thing words that are English only (not also German, French or Spanish, as "bytes" or "minutes" are). */
const englishWords = /\b(characters?|graphemes|seconds|hours|days|items|files)\b/i;

describe('message catalogs', () => {
  it('have no English unit words in the German, French and Spanish messages', () => {
    const english = languages
      .filter((language) => language !== 'en')
      .flatMap((language) => messageKeys.map((key) => ({ language, key, text: renderMessage(language, key).replace(/\{\w+\}/g, '') })))
      .filter(({ text }) => englishWords.test(text));
    expect(english).toEqual([]);
  });

  it('take no unit as a parameter: every language writes its own', () => {
    const withUnit = languages.flatMap((language) => messageKeys.filter((key) => renderMessage(language, key).includes('{unit}')).map((key) => `${language} ${key}`));
    expect(withUnit).toEqual([]);
  });

  it('render lengths, sizes and missing things in the language asked for', () => {
    expect(renderMessage('de', 'rule.captionTooLong', { length: 501, limit: 500 })).toBe('Der Text ist 501 Zeichen lang; erlaubt sind 500.');
    expect(renderMessage('fr', 'rule.captionTooLongGraphemes', { length: 301, limit: 300 })).toBe('La légende fait 301 caractères visibles (graphèmes) ; la limite est 300.');
    expect(renderMessage('es', 'detail.tooLarge', { limit: 1024 })).toBe('El cuerpo supera 1024 bytes.');
    expect(renderMessage('de', 'notFound', { kind: 'media file' })).toBe('Nicht gefunden (Mediendatei): Diese ID gibt es in diesem Workspace nicht.');
    expect(renderMessage('es', 'rule.mediaKind', { kind: 'video', placement: 'story' })).toBe('Un story no admite archivos vídeo.');
    expect(renderMessage('en', 'notFound', { kind: 'post' })).toBe('No such post in this workspace.');
    expect(renderMessage('en', 'workspaceNotFound')).toBe('No such workspace.');
  });
});

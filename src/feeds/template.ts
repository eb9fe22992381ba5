// The caption a feed item becomes: the feed's template with `{{title}}` and `{{link}}` filled in.
import type { ErrorDetail } from '../errors/appError.ts';
import type { FeedEntry } from './items.ts';

export const defaultTemplate = '{{title}} {{link}}';
export const placeholders = ['title', 'link'] as const;

const placeholder = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** A template naming a placeholder other than `{{title}}` and `{{link}}`: 400 details on `template`. */
export function templateDetails(template: string | undefined): ErrorDetail[] {
  if (template === undefined) return [];
  const unknown = [...template.matchAll(placeholder)].map((match) => match[1]!).filter((name) => !(placeholders as readonly string[]).includes(name));
  return unknown.length
    ? [
        {
          field: 'template',
          code: 'unknownPlaceholder',
          messageKey: 'detail.unknownPlaceholder',
          params: { name: unknown[0]!, allowed: placeholders.map((name) => `{{${name}}}`).join(', ') },
        },
      ]
    : [];
}

export function renderTemplate(template: string, entry: FeedEntry): string {
  const values: Record<(typeof placeholders)[number], string> = { title: entry.title, link: entry.link ?? '' };
  return template.replace(placeholder, (_match, name: string) => values[name as keyof typeof values] ?? '').trim();
}

// A caption's links as a target publishes them: UTM parameters added with the WHATWG URL API (those a link already
// has are kept) and, when shortened, replaced by the short link. Links are found by linkify-it (docs/architecture.md):
// explicit http(s) links only, with trailing punctuation left out as people mean it ("see https://a.example/x.").
import { LinkifyIt } from 'linkify-it';
import { changesLinks, utmFields, type LinkSetting } from './setting.ts';

const finder = new LinkifyIt({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false }).add('ftp:', null).add('mailto:', null).add('//', null);

/** The link with the setting's UTM parameters, each only where the link has no such parameter yet. */
export function withUtm(link: string, utm: LinkSetting['utm']): string {
  const url = new URL(link);
  let changed = false;
  for (const field of utmFields) {
    const value = utm[field];
    if (value === undefined || url.searchParams.has(`utm_${field}`)) continue;
    url.searchParams.append(`utm_${field}`, value);
    changed = true;
  }
  return changed ? url.href : link;
}

export interface LinkedCaption {
  caption: string;
  /** Each link as it is finally reached (UTM parameters added), in order of appearance, without repeats. */
  destinations: string[];
}

/** The caption with its links changed by the setting; `shortLink` names the short link of a destination. */
export function linkCaption(caption: string, setting: LinkSetting, shortLink: (destination: string) => string): LinkedCaption {
  const matches = changesLinks(setting) ? (finder.match(caption) ?? []) : [];
  const destinations = new Set<string>();
  let linked = '';
  let at = 0;
  for (const match of matches) {
    if (!URL.canParse(match.url)) continue;
    const destination = withUtm(match.url, setting.utm);
    destinations.add(destination);
    linked += caption.slice(at, match.index) + (setting.shorten ? shortLink(destination) : destination);
    at = match.lastIndex;
  }
  return { caption: linked + caption.slice(at), destinations: [...destinations] };
}

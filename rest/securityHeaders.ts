// Browser security headers. Every answer: no type sniffing, no full URL sent to other origins, and a
// Content-Security-Policy that loads nothing and may be framed nowhere (an API answer is data, never a page). The
// pages the service serves widen that policy only as far as they need: the dashboard (its own scripts and styles,
// media from wherever media files are served) and GraphiQL (its one inline script, pinned by its hash). Media files
// are served sandboxed, so even a file a browser would render runs nothing in the service's origin.
import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

type Directives = Record<string, string[]>;

const policyOf = (directives: Directives) =>
  Object.entries(directives)
    .map(([directive, sources]) => [directive, ...sources].join(' '))
    .join('; ');

const none = ["'none'"];
const self = ["'self'"];

const answerPolicy = policyOf({ 'default-src': none, 'frame-ancestors': none });

/**
 * What a media file opened in a browser may do: show itself, nothing more. The browser's own viewer styles itself
 * inline and fetches the video again from the document's URL, which an opaque (sandboxed) origin would make a
 * cross-origin fetch: the sandbox keeps the origin, and allows no script.
 */
export const mediaFilePolicy = policyOf({
  'default-src': none,
  'img-src': self,
  'media-src': self,
  'style-src': ["'unsafe-inline'"],
  sandbox: ['allow-same-origin'],
});

export function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  res.setHeader('Content-Security-Policy', answerPolicy);
  next();
}

/**
 * The dashboard (web/, built by Vite: no inline script or style) calls the API and uploads to PUBLIC_BASE_URL's
 * origin, which may differ from the address the page was loaded from; thumbnails come from there or, redirected,
 * from the media store (`mediaOrigin`, S3), which also takes uploads straight from the browser. Account avatars are
 * the networks' own pictures, on their hosts: any https image (an image cannot run anything).
 */
export function dashboardPolicy(publicBaseUrl: string, mediaOrigin: string | null): string {
  const service = [...self, new URL(publicBaseUrl).origin];
  const media = mediaOrigin ? [...service, mediaOrigin] : service;
  return policyOf({
    'default-src': self,
    'script-src': self,
    'style-src': self,
    'img-src': [...media, 'https:'],
    'media-src': media,
    'connect-src': media,
    'object-src': none,
    'base-uri': none,
    'form-action': self,
    'frame-ancestors': none,
  });
}

/**
 * The OAuth start link's page (startLinkPage.ts): markup only, no script, style or image, so the answers' own policy,
 * plus its one form. Browsers hold a form's whole redirect chain to `form-action`: Continue's answer sends the browser
 * to the network (`networkOrigin`), which may redirect at once (a grant given before) to the callback here, which
 * sends it on to where the flow ends (`returnOrigin`, an allowed `redirectUri`'s origin; the dashboard is 'self').
 */
export function startLinkPolicy(networkOrigin: string, returnOrigin: string | null): string {
  const formAction = [...self, networkOrigin, ...(returnOrigin ? [returnOrigin] : [])];
  return policyOf({ 'default-src': none, 'base-uri': none, 'form-action': formAction, 'frame-ancestors': none });
}

/**
 * GraphiQL's page (`html`) runs one inline script, allowed by its hash; its editor (Monaco) adds styles at run time,
 * loads fonts from data: URLs and runs its workers from blob: URLs.
 */
export function graphiqlPolicy(html: string): string {
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(([, body]) => `'sha256-${createHash('sha256').update(body!).digest('base64')}'`);
  return policyOf({
    'default-src': none,
    'script-src': scripts,
    'style-src': ["'unsafe-inline'"],
    'img-src': ['data:'],
    'font-src': ['data:'],
    'worker-src': ['blob:'],
    'connect-src': self,
    'base-uri': none,
    'form-action': none,
    'frame-ancestors': none,
  });
}

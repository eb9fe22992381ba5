// The dashboard's pages as the frame lists them, grouped: Publish, Insights, Settings.
import type { MessageKey } from './i18n.ts';

export interface NavPage {
  path: string;
  label: MessageKey;
}
export interface NavSection {
  title: MessageKey;
  pages: NavPage[];
}
export const sections: NavSection[] = [
  {
    title: 'nav.publish',
    pages: [
      { path: '/calendar', label: 'nav.calendar' },
      { path: '/compose', label: 'nav.compose' },
      { path: '/inbox', label: 'inbox.nav' },
      { path: '/queues', label: 'queues.nav' },
      { path: '/feeds', label: 'feeds.nav' },
      { path: '/media', label: 'nav.media' },
    ],
  },
  { title: 'nav.insights', pages: [{ path: '/analytics', label: 'analytics.nav' }] },
  {
    title: 'nav.settings',
    pages: [
      { path: '/accounts', label: 'nav.accounts' },
      { path: '/people', label: 'nav.people' },
      { path: '/api-keys', label: 'nav.apiKeys' },
      { path: '/webhooks', label: 'nav.webhooks' },
      { path: '/request-log', label: 'nav.requestLog' },
      { path: '/ai-credits', label: 'nav.aiCredits' },
    ],
  },
];
export const isCurrent = (page: NavPage, path: string) => path === page.path || (page.path === '/calendar' && path === '/');

// Google Business Profile as the service knows it: its rules, the operator's Google OAuth app (GOOGLE_BUSINESS_*: a
// client of a Google Cloud project granted the Business Profile APIs, which may be the YouTube client's) and its adapter.
import { defineNetwork, oauthFactory } from '../network.ts';
import { googleBusinessRules } from './rules.ts';

/** Google's own host of the posts API (v4): GOOGLE_BUSINESS_API_BASE_URL's default. */
export const postsApiUrl = 'https://mybusiness.googleapis.com';

export const googleBusinessNetwork = defineNetwork({
  rules: googleBusinessRules,
  connection: { method: 'oauth2' },
  app: {
    settingsPrefix: 'GOOGLE_BUSINESS',
    apiBaseUrl: postsApiUrl,
    authBaseUrl: 'https://accounts.google.com',
    tokenBaseUrl: 'https://oauth2.googleapis.com',
  },
  adapter: async () => {
    const { createGoogleBusinessAdapter } = await import('./adapter.ts');
    return oauthFactory('google_business', createGoogleBusinessAdapter);
  },
  inbox: { unavailable: 'Google Business Profile has reviews, not comments on posts; reviews are not collected yet.' },
});

// What a network is, in one place: every network this service knows, by its provider name (`provider` in every API,
// `/oauth/callback/<name>`), its published rules (with its display name), and for an OAuth network at fixed hosts the
// operator's app there: the settings that name it and where the network's API and sign-in live. The settings
// (src/config.ts), the catalog (GET /v1/providers), the registry and the contract's Provider enums follow this list;
// test/domain/networks.test.ts holds rest/openapi.yaml and schema/schema.graphql to it.
import type { ProviderRules } from './rules.ts';
import { blueskyRules } from './bluesky/rules.ts';
import { facebookRules } from './facebook/rules.ts';
import { instagramRules } from './instagram/rules.ts';
import { linkedinRules } from './linkedin/rules.ts';
import { mastodonRules } from './mastodon/rules.ts';
import { pinterestRules } from './pinterest/rules.ts';
import { sandboxRules } from './sandbox/rules.ts';
import { threadsRules } from './threads/rules.ts';
import { tiktokRules } from './tiktok/rules.ts';
import { xRules } from './x/rules.ts';
import { youtubeRules } from './youtube/rules.ts';

/**
 * The operator's app at an OAuth network with fixed endpoints: `<settingsPrefix>_CLIENT_ID` and `_CLIENT_SECRET` (without
 * both the network is not configured), `_API_BASE_URL` and `_AUTH_BASE_URL` (these the defaults, the real network's).
 */
export interface NetworkApp {
  settingsPrefix: string;
  apiBaseUrl: string;
  /** Where the person signs in and authorizes the app. */
  authBaseUrl: string;
  /** Where the token and revocation endpoints are when on neither of those hosts (Google's): `<settingsPrefix>_TOKEN_BASE_URL`. */
  tokenBaseUrl?: string;
  /** Where uploads go when on a host of their own (Facebook reels' rupload host): `<settingsPrefix>_UPLOAD_BASE_URL`. */
  uploadBaseUrl?: string;
}

export interface Network {
  name: string;
  displayName: string;
  rules: ProviderRules;
  /** Absent for networks that need no app of the operator's: Mastodon (one per instance, registered as needed), Bluesky, the sandbox. */
  app?: NetworkApp;
}

const network = (rules: ProviderRules, app?: NetworkApp): Network => ({ name: rules.provider, displayName: rules.displayName, rules, app });

/** In the order GET /v1/providers lists them. */
export const networks: readonly Network[] = [
  network(blueskyRules),
  network(mastodonRules),
  network(xRules, { settingsPrefix: 'X', apiBaseUrl: 'https://api.x.com', authBaseUrl: 'https://x.com/i' }),
  network(linkedinRules, { settingsPrefix: 'LINKEDIN', apiBaseUrl: 'https://api.linkedin.com', authBaseUrl: 'https://www.linkedin.com/oauth' }),
  network(facebookRules, {
    settingsPrefix: 'FACEBOOK',
    apiBaseUrl: 'https://graph.facebook.com',
    authBaseUrl: 'https://www.facebook.com',
    uploadBaseUrl: 'https://rupload.facebook.com',
  }),
  // Instagram Login's app (instagram/login.ts); Facebook Login's is Facebook's (registry.ts, appNetworks).
  network(instagramRules, {
    settingsPrefix: 'INSTAGRAM',
    apiBaseUrl: 'https://graph.instagram.com',
    authBaseUrl: 'https://www.instagram.com',
    tokenBaseUrl: 'https://api.instagram.com',
  }),
  network(threadsRules, { settingsPrefix: 'THREADS', apiBaseUrl: 'https://graph.threads.net', authBaseUrl: 'https://threads.net' }),
  network(tiktokRules, { settingsPrefix: 'TIKTOK', apiBaseUrl: 'https://open.tiktokapis.com', authBaseUrl: 'https://www.tiktok.com' }),
  network(youtubeRules, {
    settingsPrefix: 'YOUTUBE',
    apiBaseUrl: 'https://www.googleapis.com',
    authBaseUrl: 'https://accounts.google.com',
    tokenBaseUrl: 'https://oauth2.googleapis.com',
  }),
  network(pinterestRules, { settingsPrefix: 'PINTEREST', apiBaseUrl: 'https://api.pinterest.com', authBaseUrl: 'https://www.pinterest.com' }),
  network(sandboxRules),
];

export function networkNamed(name: string): Network | undefined {
  return networks.find((entry) => entry.name === name);
}

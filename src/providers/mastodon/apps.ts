// Mastodon has no central developer portal: every instance needs an app of its own, registered through its API
// (POST /api/v1/apps, https://docs.joinmastodon.org/methods/apps/#create). We register one per instance and
// redirect URI on first use, keep it (client secret sealed) and reuse it for every person on that instance.
import type { Database } from '../../db/database.ts';
import type { SecretBox } from '../../crypto/secretBox.ts';
import type { NetworkHttp } from '../http.ts';
import type { CredentialApplication } from './api.ts';

/** The least the service needs (https://docs.joinmastodon.org/api/oauth-scopes/): who the account is, its posts' figures, posting with media. */
export const mastodonScopes = ['read:accounts', 'read:statuses', 'write:media', 'write:statuses'];

export interface MastodonAppIdentity {
  /** Shown to people on the instance's authorization page. */
  name: string;
  website: string;
}

export interface RegisteredApp {
  clientId: string;
  clientSecret: string;
}

export class MastodonApps {
  readonly #db: Database;
  readonly #secrets: SecretBox;
  readonly #http: NetworkHttp;
  readonly #identity: MastodonAppIdentity;

  constructor(db: Database, secrets: SecretBox, http: NetworkHttp, identity: MastodonAppIdentity) {
    this.#db = db;
    this.#secrets = secrets;
    this.#http = http;
    this.#identity = identity;
  }

  /**
   * The app at this instance for this redirect URI, registered on first use. Two registrations at once keep the
   * first one stored (both callers get it), so an authorization never starts with a client that is then replaced.
   */
  async appFor(instance: string, redirectUri: string, signal?: AbortSignal): Promise<RegisteredApp> {
    const scopes = mastodonScopes.join(' ');
    const known = await this.#stored(instance, { redirectUri });
    if (known && known.scopes === scopes) return known.app;
    const { body } = await this.#http.send<CredentialApplication>({
      method: 'POST',
      url: new URL('/api/v1/apps', instance),
      // One URI as a string: instances before 4.3 take no array (it is dropped: "Redirect URI can't be blank"), every
      // version takes the string (https://docs.joinmastodon.org/methods/apps/#create, "4.3.0 - added support for multiple `redirect_uris`").
      body: { json: { client_name: this.#identity.name, redirect_uris: redirectUri, scopes, website: this.#identity.website } },
      signal,
    });
    // A registration for other scopes (an older version of this service) is replaced; an equal one is kept.
    await this.#db.pool.query(
      `INSERT INTO mastodon_app (id, instance_url, redirect_uri, scopes, client_id, encrypted_client_secret)
       VALUES (gen_random_uuid(), $1, $2, $3, $4, $5)
       ON CONFLICT (instance_url, redirect_uri) DO UPDATE
         SET scopes = EXCLUDED.scopes, client_id = EXCLUDED.client_id, encrypted_client_secret = EXCLUDED.encrypted_client_secret, created_at = now()
         WHERE mastodon_app.scopes <> EXCLUDED.scopes`,
      [instance, redirectUri, scopes, body.client_id, this.#secrets.seal(body.client_secret)],
    );
    const stored = await this.#stored(instance, { redirectUri });
    if (!stored) throw new Error(`the Mastodon app for ${instance} was not stored`);
    return stored.app;
  }

  /** The app that issued an account's tokens (for revoking them). */
  async byClientId(instance: string, clientId: string): Promise<RegisteredApp | null> {
    return (await this.#stored(instance, { clientId }))?.app ?? null;
  }

  async #stored(instance: string, by: { redirectUri: string } | { clientId: string }): Promise<{ app: RegisteredApp; scopes: string } | null> {
    const row = await this.#db.prisma.mastodonApp.findFirst({ where: { instanceUrl: instance, ...by } });
    return row ? { app: { clientId: row.clientId, clientSecret: this.#secrets.open(row.encryptedClientSecret) }, scopes: row.scopes } : null;
  }
}

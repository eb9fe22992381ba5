// The parts of the Mastodon REST API this service calls, typed as docs.joinmastodon.org documents them
// (only the fields we read).
import { NetworkHttp } from '../http.ts';

/** https://docs.joinmastodon.org/entities/Application/#CredentialApplication */
export interface CredentialApplication {
  client_id: string;
  client_secret: string;
}

/** RFC 8414 metadata, served by Mastodon 4.3+ (https://docs.joinmastodon.org/methods/oauth/#authorization-server-metadata). */
export interface AuthorizationServerMetadata {
  authorization_endpoint?: string;
  token_endpoint?: string;
  revocation_endpoint?: string;
  code_challenge_methods_supported?: string[];
}

/** https://docs.joinmastodon.org/entities/Account/ */
export interface Account {
  id: string;
  username: string;
  acct: string;
  display_name: string;
  avatar?: string | null;
}

/** https://docs.joinmastodon.org/entities/Instance/ (the `configuration` we read). */
export interface Instance {
  configuration?: {
    statuses?: { max_characters?: number; max_media_attachments?: number; characters_reserved_per_url?: number };
    media_attachments?: {
      supported_mime_types?: string[];
      description_limit?: number;
      image_size_limit?: number;
      image_matrix_limit?: number;
      video_size_limit?: number;
      video_matrix_limit?: number;
    };
  };
}

/** https://docs.joinmastodon.org/entities/MediaAttachment/ */
export interface MediaAttachment {
  id: string;
}

/** https://docs.joinmastodon.org/entities/Status/ */
export interface Status {
  id: string;
  uri: string;
  url?: string | null;
  favourites_count: number;
  reblogs_count: number;
  replies_count: number;
}

/** Mastodon's error bodies: `{"error": "..."}`, OAuth ones with `error_description` (https://docs.joinmastodon.org/entities/Error/). */
export function mastodonReason(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { error, error_description: description } = body as { error?: unknown; error_description?: unknown };
  if (typeof description === 'string' && description !== '') return description;
  return typeof error === 'string' && error !== '' ? error : undefined;
}

export function mastodonHttp(options: { allowedHosts: ReadonlySet<string>; timeoutMs?: number; retries?: number; retryDelayMs?: number }): NetworkHttp {
  return new NetworkHttp({ network: 'Mastodon', reasonOf: mastodonReason, ...options });
}

/** The instance's origin (`https://mastodon.social`) for whatever URL of it a person gave. */
export function instanceOrigin(instanceUrl: string): string {
  return new URL(instanceUrl).origin;
}

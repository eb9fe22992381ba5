// Discord: messages in a channel of a server, as the operator's bot (DISCORD_BOT_TOKEN), the server added by the
// person through Discord's OAuth2 (the operator's application at https://discord.com/developers/applications).
//   OAuth  https://discord.com/developers/docs/topics/oauth2#bot-authorization-flow and #advanced-bot-authorization:
//     <discord.com>/oauth2/authorize with `scope=bot identify` (a scope beside `bot` makes it a code grant that comes
//     back to the redirect URI), `permissions` (the bit set below) and no PKCE; POST /oauth2/token with HTTP Basic,
//     whose answer names the server the person chose and the bot joined (`guild`, also `guild_id` in the callback);
//     POST /oauth2/token/revoke at disconnect. The person's own token is kept for that revocation only: everything
//     else is the bot's, so it is never refreshed (its 7 days may pass).
//   Requests  https://discord.com/developers/docs/reference#authentication (`Authorization: Bot <token>`) and
//     #user-agent (`DiscordBot ($url, $versionNumber)`); errors `{code, message}`
//     (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json): 50001 Missing Access and 50013
//     Missing Permissions (the bot was removed from the server, or may no longer see or post there) and a refused bot
//     token (401) leave the account to reconnect; 10003 Unknown Channel asks for another channel.
//   Rate limits  https://discord.com/developers/docs/topics/rate-limits: a 429 answers `{message, retry_after,
//     global}` (seconds, with decimals) with Retry-After and X-RateLimit-Scope (user, global or shared): the target
//     waits retry_after.
//   Channels  https://discord.com/developers/docs/resources/guild#get-guild-channels: the setting's options are the
//     server's text (type 0) and announcement (type 5) channels; a target's channel is checked to be one of the
//     account's server (GET /channels/{id}, https://discord.com/developers/docs/resources/channel#get-channel), as the
//     bot is in every server any workspace connected.
//   Messages  https://discord.com/developers/docs/resources/message#create-message: JSON `{content, nonce,
//     enforce_nonce, flags, attachments}`; with files, multipart `payload_json` and `files[n]`
//     (https://discord.com/developers/docs/reference#uploading-files). The message's page:
//     https://discord.com/channels/<guild>/<channel>/<message>.
//   No duplicates  `nonce` (from the idempotency key, up to 25 characters) with `enforce_nonce: true`: "checked for
//     uniqueness in the past few minutes. If another message was created by the same author with the same nonce, that
//     message will be returned and no new message will be created." A send interrupted longer ago than that window
//     (taken as two minutes, Discord saying no more than "a few") is looked up instead among the channel's messages
//     since the send began (GET /channels/{id}/messages?after=<a snowflake of that time>,
//     https://discord.com/developers/docs/resources/message#get-channel-messages): the bot's, with the same content.
import { createHash } from 'node:crypto';
import {
  ProviderError,
  type ConnectedAccount,
  type ItemMetrics,
  type ProviderAdapter,
  type ProviderTokens,
  type PublishMedia,
  type PublishOutcome,
  type PublishRequest,
  type SettingOptions,
} from '../adapter.ts';
import { networkFetch, retryAfterMs, type NetworkResponse, type ResponseHeaders } from '../http.ts';
import { NetworkApi, type NetworkApiOptions, type NetworkCall } from '../kit/networkApi.ts';
import { apiOptions, OAuthAdapter, type OAuthAdapterOptions } from '../kit/oauthAdapter.ts';
import { oauthLink, type OAuthProfile } from '../kit/oauthLink.ts';
import { Steps } from '../kit/steps.ts';
import { multipartFilesBody } from '../kit/upload.ts';
import type { GivenApp, OAuthAdapterDependencies } from '../network.ts';
import { discordRules, discordUploadLimit } from './network.ts';

export const discordScopes = ['bot', 'identify'];

/** View Channel (1 << 10), Send Messages (1 << 11), Embed Links (1 << 14), Attach Files (1 << 15): https://discord.com/developers/docs/topics/permissions. */
export const botPermissions = String((1 << 10) | (1 << 11) | (1 << 14) | (1 << 15));

/** Discord's window for `enforce_nonce`, as assumed here ("the past few minutes"). */
export const nonceWindowMs = 2 * 60_000;

/** The message flag that keeps Discord from showing link previews (SUPPRESS_EMBEDS). */
const suppressEmbedsFlag = 1 << 2;

/** Channel types that take messages: GUILD_TEXT and GUILD_ANNOUNCEMENT. */
const messageChannelTypes = new Set([0, 5]);

/** The first second of 2015 (Discord's epoch), from which snowflakes count milliseconds (https://discord.com/developers/docs/reference#snowflakes). */
const discordEpochMs = 1_420_070_400_000n;

const agentVersion = '1.0.0';

interface DiscordSettings {
  channel: string;
  suppressEmbeds?: boolean;
}

interface Channel {
  id?: string;
  type?: number;
  guild_id?: string;
  name?: string;
  position?: number;
}

interface Message {
  id?: string;
  content?: string;
  author?: { id?: string };
  attachments?: unknown[];
}

interface Sent {
  id: string;
}

/** A snowflake of `ms` (ms since the Unix epoch): the id a message made then would be above. */
export const snowflakeAt = (ms: number) => ((BigInt(Math.floor(ms)) - discordEpochMs) << 22n).toString();

/** The message's nonce: the same for every attempt of one publish, within Discord's 25 characters. */
export const nonceOf = (idempotencyKey: string) => createHash('sha256').update(idempotencyKey).digest('base64url').slice(0, 25);

function reasonOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return typeof body === 'string' && body ? `Discord: ${body.slice(0, 300)}` : undefined;
  const { message, code } = body as { message?: unknown; code?: unknown };
  if (typeof message !== 'string' || !message) return undefined;
  return typeof code === 'number' && code !== 0 ? `Discord: ${message} (${code})` : `Discord: ${message}`;
}

/** Discord's answers whose meaning is its own: its 429's wait, a refused bot, a bot that lost the server, a channel gone. */
function classify({ status, headers, body, reason }: { status: number; headers: ResponseHeaders; body: unknown; reason: string }): ProviderError | undefined {
  const {
    code,
    retry_after: retryAfter,
    global,
  } = (typeof body === 'object' && body !== null ? body : {}) as {
    code?: unknown;
    retry_after?: unknown;
    global?: unknown;
  };
  if (status === 429) {
    const scope = global === true ? 'global' : (headers['x-ratelimit-scope'] ?? 'user');
    const waitMs = typeof retryAfter === 'number' ? Math.ceil(retryAfter * 1000) : retryAfterMs(headers);
    return new ProviderError('RATE_LIMITED_BY_PROVIDER', `${reason} (rate limit scope: ${scope})`, true, { retryAfterMs: waitMs });
  }
  if (status === 401) {
    return new ProviderError(
      'ACCOUNT_NEEDS_RECONNECT',
      `${reason}: Discord refused the bot's token (the operator's DISCORD_BOT_TOKEN); once it is right, connect the server again.`,
      false,
      { tokenRejected: true },
    );
  }
  if (code === 50001 || code === 50013) {
    return new ProviderError(
      'ACCOUNT_NEEDS_RECONNECT',
      `${reason}: the bot was removed from the server or may no longer see or post in the channel; connect the server again to add it back with its permissions.`,
      false,
      { tokenRejected: true },
    );
  }
  if (code === 10003) return new ProviderError('PROVIDER_REJECTED', `${reason}: the channel no longer exists; choose another.`, false);
  return undefined;
}

/**
 * Remembers the server each code exchange added the bot to (the token answer's `guild`) until identities reads it,
 * right after in the same callback; the oldest are forgotten past `kept` (exchanges whose callback failed between).
 */
class GrantedGuilds {
  static readonly kept = 100;
  readonly #byToken = new Map<string, string>();

  /** The token endpoint's fetch, noting the `guild` of each answer that names one. */
  watching(send: typeof fetch): typeof fetch {
    return async (input, init) => {
      const response = await send(input, init);
      if (!response.ok || !/\bjson\b/i.test(response.headers.get('content-type') ?? '')) return response;
      const answer = (await response
        .clone()
        .json()
        .catch(() => undefined)) as { access_token?: unknown; guild?: { id?: unknown } } | undefined;
      if (typeof answer?.access_token === 'string' && typeof answer.guild?.id === 'string') this.#byToken.set(answer.access_token, answer.guild.id);
      for (const oldest of this.#byToken.keys()) {
        if (this.#byToken.size <= GrantedGuilds.kept) break;
        this.#byToken.delete(oldest);
      }
      return response;
    };
  }

  take(accessToken: string): string | undefined {
    const guildId = this.#byToken.get(accessToken);
    this.#byToken.delete(accessToken);
    return guildId;
  }
}

class DiscordApi extends NetworkApi {
  readonly #authorization: string;
  readonly #userAgent: string;
  #botId: Promise<string> | undefined;

  constructor(options: NetworkApiOptions, botToken: string, publicBaseUrl: string) {
    super(options, { network: 'Discord', reasonOf, classify });
    this.#authorization = `Bot ${botToken}`;
    this.#userAgent = `DiscordBot (${publicBaseUrl}, ${agentVersion})`;
  }

  /** A call as the bot. */
  asBot<T>(call: NetworkCall): Promise<NetworkResponse<T>> {
    return this.send<T>({ ...call, headers: { ...call.headers, authorization: this.#authorization, 'user-agent': this.#userAgent } });
  }

  /** The bot's user id (GET /users/@me, https://discord.com/developers/docs/resources/user#get-current-user), asked once. */
  botId(signal?: AbortSignal): Promise<string> {
    this.#botId ??= this.asBot<{ id?: string }>({ method: 'GET', path: '/users/@me', signal }).then(({ body }) => {
      if (!body.id) throw new ProviderError('PROVIDER_UNAVAILABLE', 'Discord answered GET /users/@me without the bot.', true);
      return body.id;
    });
    this.#botId.catch(() => (this.#botId = undefined));
    return this.#botId;
  }
}

function discordProfile(api: DiscordApi, app: GivenApp, guilds: GrantedGuilds): OAuthProfile {
  return {
    network: 'Discord',
    server: () => ({
      authorizationEndpoint: `${app.authBaseUrl}/oauth2/authorize`,
      tokenEndpoint: `${app.apiBaseUrl}/oauth2/token`,
      revocationEndpoint: `${app.apiBaseUrl}/oauth2/token/revoke`,
      scopes: discordScopes,
      pkce: false,
      clientAuthentication: 'basic',
      authorizationParams: { permissions: botPermissions },
    }),
    identities: async (tokens: ProviderTokens) => {
      const guildId = guilds.take(tokens.accessToken);
      if (!guildId) throw new ProviderError('PROVIDER_REJECTED', 'Discord added the bot to no server: connect again and choose a server.', false);
      // https://discord.com/developers/docs/resources/guild#get-guild, as the bot: it is in the server, and its name and icon.
      const { body } = await api.asBot<{ id?: string; name?: string; icon?: string | null }>({ method: 'GET', path: `/guilds/${encodeURIComponent(guildId)}` });
      if (!body.id || !body.name) throw new ProviderError('PROVIDER_UNAVAILABLE', 'Discord answered GET /guilds/{id} without the server.', true);
      const identity = {
        remoteId: body.id,
        username: body.name,
        displayName: body.name,
        avatarUrl: body.icon ? `https://cdn.discordapp.com/icons/${body.id}/${body.icon}.png` : null,
      };
      return [{ identity, tokens: { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, scope: tokens.scope } }];
    },
    refresh: 'none',
  };
}

export interface DiscordAdapterOptions extends OAuthAdapterOptions {
  botToken: string;
  publicBaseUrl: string;
}

export class DiscordAdapter extends OAuthAdapter implements ProviderAdapter {
  readonly #api: DiscordApi;

  constructor(options: DiscordAdapterOptions) {
    const api = new DiscordApi(apiOptions(options), options.botToken, options.publicBaseUrl);
    const guilds = new GrantedGuilds();
    super(
      { rules: discordRules, duplicates: 'idempotency-key' },
      oauthLink(discordProfile(api, options.app, guilds), options.app, {
        redirectUri: options.redirectUri,
        timeoutMs: options.timeoutMs,
        fetch: guilds.watching(networkFetch()),
      }),
    );
    this.#api = api;
  }

  async publish(request: PublishRequest): Promise<PublishOutcome> {
    const { channel, suppressEmbeds } = request.settings as unknown as DiscordSettings;
    const guildId = guildOf(request.account);
    const signal = request.signal;
    const bytes = request.media.reduce((total, media) => total + media.size, 0);
    if (bytes > discordUploadLimit)
      throw new ProviderError('PROVIDER_REJECTED', 'Discord takes at most 25 MiB of files in one message; these are more together.', false);
    await this.#checkChannel(channel, guildId, signal);
    const steps = new Steps(request.checkpoint);
    const since = steps.result<number>('message:since') ?? (await steps.record('message:since', Date.now()));
    const payload = {
      content: request.caption,
      nonce: nonceOf(request.idempotencyKey),
      enforce_nonce: true,
      ...(suppressEmbeds ? { flags: suppressEmbedsFlag } : {}),
      ...(request.media.length
        ? {
            attachments: request.media.map((media, index) => ({
              id: index,
              filename: filenameOf(media),
              ...(media.altText ? { description: media.altText } : {}),
            })),
          }
        : {}),
    };
    const message = await steps.once(
      'message',
      async (): Promise<Sent> => {
        const body = request.media.length
          ? multipartFilesBody(
              { payload_json: JSON.stringify(payload) },
              request.media.map((media, index) => ({ field: `files[${index}]`, filename: filenameOf(media), media })),
            )
          : { json: payload };
        const { body: sent } = await this.#api.asBot<Message>({ method: 'POST', path: `/channels/${encodeURIComponent(channel)}/messages`, body, signal });
        if (!sent.id) throw new ProviderError('PROVIDER_UNAVAILABLE', 'Discord took the message without naming it.', false);
        return { id: sent.id };
      },
      // Within the nonce's window the send is made again: Discord answers the message it made, if it made one.
      { ifInterrupted: async () => (Date.now() - since < nonceWindowMs ? null : this.#earlierMessage(channel, since, request, signal)) },
    );
    return { status: 'published', item: { remoteId: message.id, remoteUrl: `https://discord.com/channels/${guildId}/${channel}/${message.id}` } };
  }

  /** The server's text and announcement channels, in Discord's order, for `channel`. */
  async settingOptions(account: ConnectedAccount, signal: AbortSignal): Promise<SettingOptions> {
    const { body } = await this.#api.asBot<Channel[]>({ method: 'GET', path: `/guilds/${encodeURIComponent(guildOf(account))}/channels`, signal });
    const choices = (Array.isArray(body) ? body : [])
      .filter((channel) => channel.id && messageChannelTypes.has(channel.type ?? -1))
      .sort((a, b) => (a.position ?? 0) - (b.position ?? 0))
      .map((channel) => ({ value: channel.id!, label: `#${channel.name ?? channel.id}` }));
    return { channel: { choices } };
  }

  /** Discord counts no views of a message; its reactions are not read here. */
  async metrics(): Promise<ItemMetrics> {
    return {};
  }

  /** The channel is one of the account's server that takes messages (the bot is in other workspaces' servers too). */
  async #checkChannel(channel: string, guildId: string, signal: AbortSignal): Promise<void> {
    const { body } = await this.#api.asBot<Channel>({ method: 'GET', path: `/channels/${encodeURIComponent(channel)}`, signal });
    if (body.guild_id !== guildId)
      throw new ProviderError('PROVIDER_REJECTED', 'The channel is not one of the connected server’s: choose one of its channels.', false);
    if (!messageChannelTypes.has(body.type ?? -1))
      throw new ProviderError('PROVIDER_REJECTED', 'The channel takes no messages: choose a text or announcement channel.', false);
  }

  /** The message an interrupted send made, among the channel's since the send began: the bot's, with the same text and files. */
  async #earlierMessage(channel: string, since: number, request: PublishRequest, signal: AbortSignal): Promise<Sent | null> {
    const botId = await this.#api.botId(signal);
    const query = new URLSearchParams({ after: snowflakeAt(since - 1000), limit: '100' });
    const { body } = await this.#api.asBot<Message[]>({ method: 'GET', path: `/channels/${encodeURIComponent(channel)}/messages?${query}`, signal });
    const found = (Array.isArray(body) ? body : []).find(
      (message) =>
        message.author?.id === botId &&
        (message.content ?? '').trim() === request.caption.trim() &&
        (message.attachments?.length ?? 0) === request.media.length,
    );
    return found?.id ? { id: found.id } : null;
  }
}

const extensions: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/webm': 'webm',
};

/** The account's server (its remote id, from the code exchange). */
function guildOf(account: ConnectedAccount): string {
  if (!account.remoteId)
    throw new ProviderError('ACCOUNT_NEEDS_RECONNECT', 'The account names no Discord server: connect it again.', false, { tokenRejected: true });
  return account.remoteId;
}

/** An attachment's name: Discord shows it, and plays or shows the file by its extension. */
const filenameOf = (media: PublishMedia) => `${media.id}.${extensions[media.mimeType] ?? 'bin'}`;

export function createDiscordAdapter({ app, redirectUri, config, allowedHosts, publicBaseUrl }: OAuthAdapterDependencies): DiscordAdapter {
  return new DiscordAdapter({ app, redirectUri, timeoutMs: config.networkTimeoutMs, allowedHosts, botToken: app.botToken!, publicBaseUrl });
}

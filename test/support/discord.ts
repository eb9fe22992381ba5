// A stand-in for Discord's HTTP API (v10) and its OAuth2, as its reference documents the calls the adapter makes, its
// answers typed with discord-api-types (the shapes the official clients use) and checked by @discordjs/rest, Discord's
// official client, in test/http/discord.test.ts:
//   OAuth (the shared OAuth stand-in, test/support/oauthNetwork.ts)  https://discord.com/developers/docs/topics/oauth2:
//     GET /oauth2/authorize, POST /api/v10/oauth2/token with HTTP Basic, POST /api/v10/oauth2/token/revoke. A bot
//     authorization's token answer names the server the person chose, which the bot joins (`guild`: #advanced-bot-
//     authorization, "the response will include the guild object"); without a chosen server it names none.
//   Authentication  `Authorization: Bot <token>` (https://discord.com/developers/docs/reference#authentication); a token
//     Discord does not know: 401 `{"message": "401: Unauthorized", "code": 0}` (as @discordjs/rest's DiscordAPIError
//     tests receive it). Every call's User-Agent is recorded (#user-agent: `DiscordBot ($url, $versionNumber)`).
//   Errors  `{code, message}` (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json): 10003 Unknown
//     Channel and 10004 Unknown Guild (404), 50001 Missing Access (403: the bot is not in the server), 50013 Missing
//     Permissions (403), 50006 Cannot send an empty message, 50035 Invalid Form Body with `errors` (400), 40005
//     Request entity too large (413, over the 25 MiB upload limit: #uploading-files).
//   Rate limits  https://discord.com/developers/docs/topics/rate-limits: every answer carries X-RateLimit-Limit,
//     -Remaining, -Reset (Unix seconds), -Reset-After (seconds) and -Bucket; a 429 adds Retry-After and
//     X-RateLimit-Scope and answers `{message: "You are being rate limited.", retry_after, global}`.
//   GET /users/@me  https://discord.com/developers/docs/resources/user#get-current-user (the bot)
//   GET /guilds/{id}, /guilds/{id}/channels  https://discord.com/developers/docs/resources/guild#get-guild and
//     #get-guild-channels (every channel of the server, categories and voice channels too; threads not)
//   GET /channels/{id}  https://discord.com/developers/docs/resources/channel#get-channel
//   POST /channels/{id}/messages  https://discord.com/developers/docs/resources/message#create-message: JSON, or
//     multipart with `payload_json` and `files[n]` described by `attachments` ({id, filename, description});
//     `content` up to 2,000 characters; `nonce` up to 25 characters with `enforce_nonce`: a nonce the bot used in the
//     last few minutes answers the message made with it and makes none.
//   GET /channels/{id}/messages  #get-channel-messages (`after`, `limit` up to 100, newest first). A read message
//     carries no `nonce` here: the reference gives it only for "validating a message was sent", so the adapter must
//     not rely on reading it back.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIAttachment, APIChannel, APIGuild, APIMessage, APIUser, RESTPostAPIChannelMessageJSONBody } from 'discord-api-types/v10';
import { OAuthNetwork } from './oauthNetwork.ts';

export interface StandInChannel {
  id: string;
  guildId: string;
  name: string;
  /** 0 text, 2 voice, 4 category, 5 announcement (https://discord.com/developers/docs/resources/channel#channel-object-channel-types). */
  type: 0 | 2 | 4 | 5;
  position: number;
}

export interface StandInGuild {
  id: string;
  name: string;
  icon: string | null;
  /** The bot is a member (added through a bot authorization). */
  botMember: boolean;
  /** The bot may send messages and attach files there (its role's Send Messages and Attach Files). */
  botMaySend: boolean;
}

export interface StoredMessage {
  id: string;
  channelId: string;
  authorId: string;
  content: string;
  nonce: string | null;
  flags: number;
  attachments: { id: string; filename: string; description: string | null; contentType: string | null; size: number; sha256: string }[];
  createdAt: number;
}

const uploadLimit = 25 * 1024 * 1024;

/** Discord's "few minutes" for `enforce_nonce`, as the stand-in keeps it. */
const nonceWindowMs = 5 * 60_000;

const discordEpoch = 1_420_070_400_000n;

export class DiscordStandIn extends OAuthNetwork {
  readonly botToken =
    `${Buffer.from('1100000000000000001').toString('base64url')}.${randomBytes(4).toString('base64url')}.${randomBytes(27).toString('base64url')}`;
  readonly bot: APIUser = { id: '1100000000000000001', username: 'Publisher', discriminator: '0', global_name: null, avatar: null, bot: true };
  readonly guilds = new Map<string, StandInGuild>();
  readonly channels = new Map<string, StandInChannel>();
  readonly messages: StoredMessage[] = [];
  /** Every API call, with its Authorization scheme and User-Agent. */
  readonly apiRequests: { method: string; path: string; scheme: string | undefined; userAgent: string | undefined }[] = [];
  /** The server the person chooses on the authorization page: the bot joins it at the code exchange. */
  chosenGuild: string | undefined;
  /** The bot's token was reset in the developer portal: Discord refuses the old one. */
  botTokenReset = false;
  /** The next this many API calls answer 429, asking to wait `retryAfter` seconds. */
  throttle = { next: 0, retryAfter: 1, scope: 'user' as 'user' | 'shared' };
  /** Message creations received, those answered with an earlier message for their nonce included. */
  sends = 0;
  /** Called once a message is made, before the answer: true holds the answer forever (a worker killed meanwhile). */
  holdMessage: (() => boolean) | undefined;
  #sequence = 0;

  constructor(redirectUris: string[]) {
    super(redirectUris, {
      paths: { authorize: '/oauth2/authorize', token: '/api/v10/oauth2/token', revoke: '/api/v10/oauth2/token/revoke' },
      clientAuthentication: 'basic',
      refreshTokens: 'rotated',
      tokenFields: () => this.#grantedGuild(),
    });
    this.user = { id: '80351110224678912', name: 'Nelly', username: 'nelly' };
    this.api = (req, res, url) => this.#handle(req, res, url);
  }

  static async start(redirectUris: string[]): Promise<DiscordStandIn> {
    return new DiscordStandIn(redirectUris).start();
  }

  /** The service's settings for this stand-in: Discord's sign-in and API both here, and the bot's token. */
  get env(): Record<string, string> {
    return {
      DISCORD_CLIENT_ID: this.clientId,
      DISCORD_CLIENT_SECRET: this.clientSecret,
      DISCORD_BOT_TOKEN: this.botToken,
      DISCORD_API_BASE_URL: `${this.url}/api/v10`,
      DISCORD_AUTH_BASE_URL: this.url,
    };
  }

  addGuild(guild: Pick<StandInGuild, 'id' | 'name'> & Partial<StandInGuild>, channels: Omit<StandInChannel, 'guildId'>[]): StandInGuild {
    const added: StandInGuild = { icon: null, botMember: false, botMaySend: true, ...guild };
    this.guilds.set(added.id, added);
    for (const channel of channels) this.channels.set(channel.id, { ...channel, guildId: added.id });
    return added;
  }

  /** A snowflake of now, as Discord's ids are (https://discord.com/developers/docs/reference#snowflakes). */
  #snowflake(): string {
    return (((BigInt(Date.now()) - discordEpoch) << 22n) | BigInt(this.#sequence++ & 0xfff)).toString();
  }

  #grantedGuild(): Record<string, unknown> {
    const guild = this.chosenGuild ? this.guilds.get(this.chosenGuild) : undefined;
    if (!guild) return {};
    guild.botMember = true;
    return { guild: this.#guildObject(guild) };
  }

  #guildObject(guild: StandInGuild): Partial<APIGuild> {
    return { id: guild.id, name: guild.name, icon: guild.icon, owner_id: this.user.id, features: [], roles: [], emojis: [], stickers: [] };
  }

  #channelObject(channel: StandInChannel): Partial<APIChannel> {
    return { id: channel.id, type: channel.type, guild_id: channel.guildId, name: channel.name, position: channel.position } as Partial<APIChannel>;
  }

  #messageObject(message: StoredMessage, withNonce: boolean): APIMessage {
    const attachments: APIAttachment[] = message.attachments.map((file) => ({
      id: file.id,
      filename: file.filename,
      ...(file.description ? { description: file.description } : {}),
      ...(file.contentType ? { content_type: file.contentType } : {}),
      size: file.size,
      url: `https://cdn.discordapp.com/attachments/${message.channelId}/${file.id}/${file.filename}`,
      proxy_url: `https://media.discordapp.net/attachments/${message.channelId}/${file.id}/${file.filename}`,
    }));
    return {
      id: message.id,
      channel_id: message.channelId,
      author: this.bot,
      content: message.content,
      timestamp: new Date(message.createdAt).toISOString(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      attachments,
      embeds: [],
      pinned: false,
      type: 0,
      flags: message.flags,
      ...(withNonce && message.nonce ? { nonce: message.nonce } : {}),
    };
  }

  #send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): true {
    const resetAfter = 1;
    res
      .writeHead(status, {
        'content-type': 'application/json',
        'x-ratelimit-limit': '5',
        'x-ratelimit-remaining': '4',
        'x-ratelimit-reset': ((Date.now() + resetAfter * 1000) / 1000).toFixed(3),
        'x-ratelimit-reset-after': resetAfter.toFixed(3),
        'x-ratelimit-bucket': 'a06de4d3ee7b6b5b5b3c6a9b2f1c0e7d',
        ...headers,
      })
      .end(JSON.stringify(body));
    return true;
  }

  #error(res: ServerResponse, status: number, code: number, message: string, errors?: unknown): true {
    return this.#send(res, status, { message, code, ...(errors ? { errors } : {}) });
  }

  async #handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    if (!url.pathname.startsWith('/api/v10/')) return false;
    const path = url.pathname.slice('/api/v10'.length);
    const authorization = req.headers.authorization ?? '';
    this.apiRequests.push({ method: req.method ?? 'GET', path: path + url.search, scheme: authorization.split(' ')[0], userAgent: req.headers['user-agent'] });
    if (authorization !== `Bot ${this.botToken}` || this.botTokenReset) return this.#send(res, 401, { message: '401: Unauthorized', code: 0 });
    if (this.throttle.next > 0) {
      this.throttle.next--;
      const { retryAfter, scope } = this.throttle;
      return this.#send(
        res,
        429,
        { message: 'You are being rate limited.', retry_after: retryAfter, global: false },
        {
          'retry-after': String(Math.ceil(retryAfter)),
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': ((Date.now() + retryAfter * 1000) / 1000).toFixed(3),
          'x-ratelimit-reset-after': retryAfter.toFixed(3),
          'x-ratelimit-scope': scope,
        },
      );
    }
    const route = `${req.method} ${path}`;
    if (route === 'GET /users/@me') return this.#send(res, 200, this.bot);
    const guildRoute = /^\/guilds\/(\d+)(\/channels)?$/.exec(path);
    if (req.method === 'GET' && guildRoute) {
      const guild = this.guilds.get(guildRoute[1]!);
      if (!guild) return this.#error(res, 404, 10004, 'Unknown Guild');
      if (!guild.botMember) return this.#error(res, 403, 50001, 'Missing Access');
      if (!guildRoute[2]) return this.#send(res, 200, this.#guildObject(guild));
      return this.#send(
        res,
        200,
        [...this.channels.values()].filter((channel) => channel.guildId === guild.id).map((channel) => this.#channelObject(channel)),
      );
    }
    const channelRoute = /^\/channels\/(\d+)(\/messages)?$/.exec(path);
    if (channelRoute) {
      const channel = this.channels.get(channelRoute[1]!);
      if (!channel) return this.#error(res, 404, 10003, 'Unknown Channel');
      if (!this.guilds.get(channel.guildId)?.botMember) return this.#error(res, 403, 50001, 'Missing Access');
      if (req.method === 'GET' && !channelRoute[2]) return this.#send(res, 200, this.#channelObject(channel));
      if (req.method === 'GET') return this.#list(res, channel, url.searchParams);
      if (req.method === 'POST') return this.#create(req, res, channel);
    }
    return this.#error(res, 404, 0, '404: Not Found');
  }

  #list(res: ServerResponse, channel: StandInChannel, query: URLSearchParams): true {
    const after = BigInt(query.get('after') ?? '0');
    const limit = Math.min(100, Number(query.get('limit') ?? 50));
    const found = this.messages
      .filter((message) => message.channelId === channel.id && BigInt(message.id) > after)
      .reverse()
      .slice(0, limit)
      .map((message) => this.#messageObject(message, false));
    return this.#send(res, 200, found);
  }

  async #create(req: IncomingMessage, res: ServerResponse, channel: StandInChannel): Promise<true> {
    this.sends++;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    if (raw.length > uploadLimit) return this.#error(res, 413, 40005, 'Request entity too large');
    const type = req.headers['content-type'] ?? '';
    let payload: RESTPostAPIChannelMessageJSONBody;
    const files = new Map<number, File>();
    if (type.startsWith('multipart/form-data')) {
      const form = await new Request('http://stand-in/', { method: 'POST', headers: { 'content-type': type }, body: raw }).formData();
      payload = JSON.parse(String(form.get('payload_json') ?? '{}'));
      for (const [name, value] of form) {
        const index = /^files\[(\d+)\]$/.exec(name)?.[1];
        if (index !== undefined && typeof value !== 'string') files.set(Number(index), value);
      }
    } else payload = JSON.parse(raw.toString('utf8') || '{}');
    const guild = this.guilds.get(channel.guildId)!;
    if (!guild.botMaySend || channel.type === 2 || channel.type === 4) return this.#error(res, 403, 50013, 'Missing Permissions');
    const content = payload.content ?? '';
    const invalid = (field: string, code: string, message: string) =>
      this.#error(res, 400, 50035, 'Invalid Form Body', { [field]: { _errors: [{ code, message }] } });
    if ([...content].length > 2000) return invalid('content', 'BASE_TYPE_MAX_LENGTH', 'Must be 2000 or fewer in length.');
    const nonce = payload.nonce === undefined ? null : String(payload.nonce);
    if (nonce !== null && nonce.length > 25) return invalid('nonce', 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
    if (!content.trim() && files.size === 0) return this.#error(res, 400, 50006, 'Cannot send an empty message');
    if (nonce !== null && payload.enforce_nonce) {
      const earlier = this.messages.find(
        (message) => message.nonce === nonce && message.authorId === this.bot.id && Date.now() - message.createdAt < nonceWindowMs,
      );
      if (earlier) return this.#send(res, 200, this.#messageObject(earlier, true));
    }
    const described = payload.attachments ?? [];
    const attachments = await Promise.all(
      [...files.entries()].map(async ([index, file]) => {
        const bytes = Buffer.from(await file.arrayBuffer());
        const description = described.find((attachment) => Number(attachment.id) === index)?.description ?? null;
        return {
          id: this.#snowflake(),
          filename: file.name,
          description,
          contentType: file.type || null,
          size: bytes.length,
          sha256: createHash('sha256').update(bytes).digest('hex'),
        };
      }),
    );
    const message: StoredMessage = {
      id: this.#snowflake(),
      channelId: channel.id,
      authorId: this.bot.id,
      content,
      nonce,
      flags: payload.flags ?? 0,
      attachments,
      createdAt: Date.now(),
    };
    this.messages.push(message);
    if (this.holdMessage?.()) return true;
    return this.#send(res, 200, this.#messageObject(message, true));
  }
}

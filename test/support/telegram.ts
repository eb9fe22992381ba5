// A stand-in for Telegram's Bot API, as its reference documents the calls the adapter makes. Telegram publishes no
// official client for Node (the clients it lists at https://core.telegram.org/bots/samples are the community's;
// @grammyjs/types is a community's type declarations), so the answers follow the reference
// (https://core.telegram.org/bots/api) and the answers as received, quoted in issue threads:
//   Requests     POST /bot<token>/<method>, application/json or multipart/form-data, answers `{ok: true, result}` or
//                `{ok: false, error_code, description, parameters?}` (#making-requests, #responseparameters)
//   Tokens       `<bot id>:<secret>` (#authorizing-your-bot); an unknown or revoked one is HTTP 401
//                `{"ok":false,"error_code":401,"description":"Unauthorized"}` (as received: eternnoir/pyTelegramBotAPI#168,
//                tdlib/telegram-bot-api#80: "The only way to receive error with code 401 is to provide a wrong bot token")
//   getMe        the bot as a User (#getme)
//   getChat      the chat by id or @username (#getchat, ChatFullInfo); an unknown one is 400 "Bad Request: chat not
//                found" (as received: bottenderjs/messaging-apis#414)
//   getChatMember  the bot's membership (#getchatmember, #chatmember: `status`, an administrator's
//                `can_post_messages` in channels)
//   sendMessage  text 1-4096 characters, else 400 "Bad Request: message is too long" (#sendmessage); links, @mentions and
//                #hashtags become `entities` without a parse mode (#messageentity)
//   sendPhoto, sendVideo  the file uploaded as the `photo` / `video` part, caption 0-1024 characters, else 400 "Bad
//                Request: message caption is too long" (#sendphoto, #sendvideo, #sending-files)
//   sendMediaGroup  `media` a JSON array of 2-10 InputMediaPhoto / InputMediaVideo naming uploaded parts as
//                `attach://<name>` (#sendmediagroup, #inputmediaphoto, #inputfile); answers the album's Messages
//   Sending      a bot without the right to post in the chat is 403 "Forbidden: bot is not a member of the channel chat"
//   429          `{"ok":false,"error_code":429,"description":"Too Many Requests: retry after N","parameters":{"retry_after":N}}`
//                (as received: tdlib/telegram-bot-api#184; #responseparameters `retry_after`)
// Uploaded files are hashed and counted, never kept.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Bot {
  id: number;
  username: string;
  first_name: string;
  token: string;
}

export interface StandInChat {
  id: number;
  type: 'group' | 'supergroup' | 'channel' | 'private';
  title: string;
  username?: string;
  /** The bots' memberships, by bot id (#chatmember). */
  members: Map<number, { status: string; can_post_messages?: boolean }>;
}

export interface SentFile {
  type: 'photo' | 'video';
  contentType: string;
  bytes: number;
  sha256: string;
}

export interface SentMessage {
  chatId: number;
  messageId: number;
  botId: number;
  text?: string;
  caption?: string;
  entities: { type: string; offset: number; length: number }[];
  file?: SentFile;
  mediaGroupId?: string;
  silent: boolean;
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
function refuse(res: ServerResponse, status: number, description: string, parameters?: Record<string, unknown>): void {
  answer(res, status, { ok: false, error_code: status, description, ...(parameters ? { parameters } : {}) });
}

/** Telegram's own entity detection of a text sent without a parse mode (#messageentity: url, mention, hashtag), in UTF-16 offsets. */
function entitiesOf(text: string): SentMessage['entities'] {
  const found: SentMessage['entities'] = [];
  for (const [pattern, type] of [
    [/https?:\/\/\S+/g, 'url'],
    [/(?<!\w)@\w{5,32}/g, 'mention'],
    [/(?<!\w)#\w+/g, 'hashtag'],
  ] as const) {
    for (const match of text.matchAll(pattern)) found.push({ type, offset: match.index, length: match[0].length });
  }
  return found.sort((a, b) => a.offset - b.offset);
}

export class TelegramStandIn {
  readonly bots = new Map<string, Bot>();
  readonly chats: StandInChat[] = [];
  readonly messages: SentMessage[] = [];
  /** The next N sending calls are answered 429 with this `retry_after`. */
  throttle = { calls: 0, retryAfter: 0 };
  /** While set, sending calls are held (received, recorded, then not answered) until it resolves: a worker killed mid-call. */
  hold: Promise<void> | null = null;
  /** Sending calls received, answered or not. */
  sends = 0;
  #nextMessageId = 100;
  #nextGroupId = 1;

  private constructor(
    readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<TelegramStandIn> {
    let standIn: TelegramStandIn | undefined;
    const server = createServer((req, res) => void standIn!.handle(req, res).catch(() => refuse(res, 500, 'Internal Server Error')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    standIn = new TelegramStandIn(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return standIn;
  }

  get env(): Record<string, string> {
    return { TELEGRAM_API_BASE_URL: this.url };
  }

  addBot(id: number, username: string): Bot {
    const bot = { id, username, first_name: username, token: `${id}:AAH${createHash('sha256').update(username).digest('base64url').slice(0, 32)}` };
    this.bots.set(bot.token, bot);
    return bot;
  }

  /** BotFather's /revoke: the token stops working (#authorizing-your-bot). */
  revoke(bot: Bot): void {
    this.bots.delete(bot.token);
  }

  addChat(chat: Omit<StandInChat, 'members'>, members: [Bot, { status: string; can_post_messages?: boolean }][] = []): StandInChat {
    const full = { ...chat, members: new Map(members.map(([bot, member]) => [bot.id, member])) };
    this.chats.push(full);
    return full;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  #chat(id: unknown): StandInChat | undefined {
    const key = String(id);
    return this.chats.find((chat) => String(chat.id) === key || (chat.username && `@${chat.username}` === key));
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const [, token, method] = /^\/bot([^/]+)\/(\w+)$/.exec(new URL(req.url ?? '/', this.url).pathname) ?? [];
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const bot = token ? this.bots.get(token) : undefined;
    if (!bot) return refuse(res, 401, 'Unauthorized');
    const type = String(req.headers['content-type'] ?? '');
    const form = type.startsWith('multipart/form-data')
      ? await new Request('http://stand-in/', { method: 'POST', headers: { 'content-type': type }, body: raw }).formData()
      : null;
    const params: Record<string, unknown> = form
      ? Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === 'string'))
      : raw.length
        ? JSON.parse(raw.toString('utf8'))
        : {};
    if (method === 'getMe') return answer(res, 200, { ok: true, result: { id: bot.id, is_bot: true, first_name: bot.first_name, username: bot.username } });
    const chat = this.#chat(params.chat_id);
    if (!chat) return refuse(res, 400, 'Bad Request: chat not found');
    if (method === 'getChat') {
      return answer(res, 200, { ok: true, result: { id: chat.id, type: chat.type, title: chat.title, ...(chat.username ? { username: chat.username } : {}) } });
    }
    if (method === 'getChatMember') {
      const member = chat.members.get(Number(params.user_id)) ?? { status: 'left' };
      return answer(res, 200, { ok: true, result: { user: { id: Number(params.user_id), is_bot: true, first_name: bot.first_name }, ...member } });
    }
    if (!['sendMessage', 'sendPhoto', 'sendVideo', 'sendMediaGroup'].includes(method!)) return refuse(res, 404, 'Not Found');
    this.sends++;
    if (this.throttle.calls > 0) {
      this.throttle.calls--;
      const seconds = this.throttle.retryAfter;
      return refuse(res, 429, `Too Many Requests: retry after ${seconds}`, { retry_after: seconds });
    }
    const member = chat.members.get(bot.id);
    // In a channel only its administrators with the right to post may; in a group its members too (#chatmemberadministrator, #chatmembermember).
    const status = member?.status;
    const mayPost =
      status === 'creator' ||
      (chat.type === 'channel' ? status === 'administrator' && member?.can_post_messages : status === 'administrator' || status === 'member');
    if (!mayPost) return refuse(res, 403, `Forbidden: bot is not a member of the ${chat.type === 'channel' ? 'channel' : 'group'} chat`);
    const sent = await this.#send(bot, chat, method!, params, form);
    if (typeof sent === 'string') return refuse(res, 400, sent);
    if (this.hold) {
      await this.hold;
      return;
    }
    answer(res, 200, { ok: true, result: method === 'sendMediaGroup' ? sent : sent[0] });
  }

  /** Records the message(s); a string is the 400's description. */
  async #send(
    bot: Bot,
    chat: StandInChat,
    method: string,
    params: Record<string, unknown>,
    form: FormData | null,
  ): Promise<Record<string, unknown>[] | string> {
    const silent = params.disable_notification === true || params.disable_notification === 'true';
    const record = (fields: Partial<SentMessage>) => {
      const message: SentMessage = { chatId: chat.id, messageId: this.#nextMessageId++, botId: bot.id, entities: [], silent, ...fields };
      this.messages.push(message);
      return { message_id: message.messageId, chat: { id: chat.id, type: chat.type }, date: Math.floor(Date.now() / 1000) };
    };
    const fileOf = async (part: FormDataEntryValue | null | undefined, type: 'photo' | 'video'): Promise<SentFile | undefined> => {
      if (!part || typeof part === 'string') return undefined;
      const bytes = Buffer.from(await part.arrayBuffer());
      return { type, contentType: part.type, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
    };
    if (method === 'sendMessage') {
      const text = String(params.text ?? '');
      if (!text) return 'Bad Request: message text is empty';
      if (text.length > 4096) return 'Bad Request: message is too long';
      return [record({ text, entities: entitiesOf(text) })];
    }
    const caption = typeof params.caption === 'string' ? params.caption : undefined;
    if (method !== 'sendMediaGroup') {
      if (caption && caption.length > 1024) return 'Bad Request: message caption is too long';
      const type = method === 'sendPhoto' ? 'photo' : 'video';
      const file = await fileOf(form?.get(type), type);
      if (!file) return `Bad Request: there is no ${type} in the request`;
      return [record({ caption, entities: caption ? entitiesOf(caption) : [], file })];
    }
    const media = JSON.parse(String(params.media ?? '[]')) as { type: 'photo' | 'video'; media: string; caption?: string }[];
    if (media.length < 2 || media.length > 10) return 'Bad Request: wrong number of media in the album';
    const files: SentFile[] = [];
    for (const item of media) {
      if (item.caption && item.caption.length > 1024) return 'Bad Request: message caption is too long';
      const file = await fileOf(form?.get(item.media.replace(/^attach:\/\//, '')), item.type);
      if (!file) return 'Bad Request: wrong file identifier/HTTP URL specified';
      files.push(file);
    }
    const mediaGroupId = String(this.#nextGroupId++);
    return media.map((item, index) =>
      record({ caption: item.caption, entities: item.caption ? entitiesOf(item.caption) : [], file: files[index], mediaGroupId }),
    );
  }
}

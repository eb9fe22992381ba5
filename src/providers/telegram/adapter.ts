// Telegram: messages in a channel or group, sent by a bot, through the Bot API (https://core.telegram.org/bots/api).
//   Calls     POST <TELEGRAM_API_BASE_URL>/bot<token>/<method>, JSON or multipart/form-data; every answer is
//             `{ok, result}` or `{ok: false, error_code, description, parameters}` (#making-requests).
//   Connect   the bot token and the chat: getMe (a refused token is 401, #getme), getChat (the chat, #getchat) and
//             getChatMember of the bot itself (#getchatmember): in a channel it must be an administrator with
//             `can_post_messages` (#chatmemberadministrator), in a group a member that may send messages. The account
//             is the chat (its id, @username and title); the token is its secret and never expires.
//   Publish   text alone: sendMessage (#sendmessage); one photo or video: sendPhoto / sendVideo with the file uploaded
//             (#sendphoto, #sendvideo); 2 to 10: sendMediaGroup, an album, the text as the first item's caption
//             (#sendmediagroup, `attach://<name>` files, #inputmediaphoto). The text goes as written without a
//             parse mode: Telegram makes its links, @mentions and #hashtags entities itself. The message's link is
//             https://t.me/<username>/<id>, or https://t.me/c/<id without -100>/<id> in a private supergroup or channel.
//   Answers   429 with `parameters.retry_after` (seconds) is waited out (#responseparameters); 401 is a token
//             refused (the bot was deleted or its token revoked at @BotFather): reconnect; 403 (the bot was removed
//             from the chat or lost the right to post) and 400 with `migrate_to_chat_id` (the group became a
//             supergroup with another id) need the account connected again too.
//   No duplicates  the Bot API takes no idempotency key and lets a bot read no history, so an attempt cannot ask
//             whether an earlier one's message arrived: an attempt that finds the send started and unanswered does
//             not send again but fails, saying to look in the chat; a retry the person asks for after that sends.
import type {
  ConnectedAccount,
  CredentialConnector,
  ItemMetrics,
  ProviderAdapter,
  ProviderTokens,
  PublishMedia,
  PublishOutcome,
  PublishRequest,
  RemoteIdentity,
} from '../adapter.ts';
import { ProviderError } from '../adapter.ts';
import { NetworkHttp, type NetworkRequestBody } from '../http.ts';
import { NetworkAdapter } from '../kit/networkAdapter.ts';
import { Steps } from '../kit/steps.ts';
import { multipartFilesBody } from '../kit/upload.ts';
import { telegramRules } from './network.ts';

export interface TelegramAdapterOptions {
  /** TELEGRAM_API_BASE_URL */
  baseUrl: string;
  timeoutMs: number;
  retryDelayMs?: number;
}

/** https://core.telegram.org/bots/api#user */
interface User {
  id: number;
  is_bot: boolean;
  first_name: string;
  username?: string;
}

/** https://core.telegram.org/bots/api#chatfullinfo (the fields read). */
interface Chat {
  id: number;
  type: 'private' | 'group' | 'supergroup' | 'channel';
  title?: string;
  username?: string;
  permissions?: { can_send_messages?: boolean };
}

/** https://core.telegram.org/bots/api#chatmember (the fields read of its six kinds). */
interface ChatMember {
  status: 'creator' | 'administrator' | 'member' | 'restricted' | 'left' | 'kicked';
  can_post_messages?: boolean;
  can_send_messages?: boolean;
}

/** https://core.telegram.org/bots/api#message (the fields read). */
interface Message {
  message_id: number;
}

/** The error answer (https://core.telegram.org/bots/api#making-requests, #responseparameters). */
interface Refusal {
  description?: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

const refusalOf = (body: unknown): Refusal => (typeof body === 'object' && body !== null ? (body as Refusal) : {});

/** Telegram's own meaning of an error answer, where it is not the usual one (http.ts). */
function classify({ status, body, reason }: { status: number; body: unknown; reason: string }): ProviderError | undefined {
  const { parameters } = refusalOf(body);
  if (status === 429) {
    const seconds = parameters?.retry_after;
    return new ProviderError('RATE_LIMITED_BY_PROVIDER', reason, true, { retryAfterMs: typeof seconds === 'number' ? seconds * 1000 : undefined });
  }
  if (status === 403 || parameters?.migrate_to_chat_id !== undefined) {
    return new ProviderError('ACCOUNT_NEEDS_RECONNECT', `${reason} Add the bot to the chat as an administrator that may post, and connect it again.`, false);
  }
  return undefined;
}

const reasonOf = (body: unknown) => {
  const { description } = refusalOf(body);
  return typeof description === 'string' && description ? `Telegram: ${description}` : undefined;
};

/** What may post where: a channel's administrators with the right to post; in a group, members allowed to send. */
function mayPost(chat: Chat, member: ChatMember): boolean {
  if (member.status === 'creator') return true;
  if (chat.type === 'channel') return member.status === 'administrator' && member.can_post_messages === true;
  if (member.status === 'administrator') return true;
  if (member.status === 'restricted') return member.can_send_messages === true;
  return member.status === 'member' && chat.permissions?.can_send_messages !== false;
}

/** The message's link, where the chat has one (a basic group's messages have none). */
function messageUrl(chat: { id: string; username?: string }, messageId: number): string {
  if (chat.username) return `https://t.me/${chat.username}/${messageId}`;
  return chat.id.startsWith('-100') ? `https://t.me/c/${chat.id.slice(4)}/${messageId}` : '';
}

const inputType = (media: PublishMedia) => (media.kind === 'video' ? 'video' : 'photo');

export class TelegramAdapter extends NetworkAdapter implements ProviderAdapter {
  readonly connector: CredentialConnector;
  readonly #http: NetworkHttp;
  readonly #baseUrl: string;

  constructor(options: TelegramAdapterOptions) {
    super({
      rules: telegramRules,
      duplicates: 'none',
      // https://core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-avoid-this: 20 messages a minute to one group.
      quotas: [{ name: 'Telegram messages a minute to one chat', scope: 'account', windowSeconds: 60, limit: 20, costPerPublish: 1 }],
    });
    this.#http = new NetworkHttp({ network: 'Telegram', reasonOf, classify, timeoutMs: options.timeoutMs, retryDelayMs: options.retryDelayMs });
    this.#baseUrl = options.baseUrl;
    this.connector = { method: 'credentials', connect: (credentials) => this.#connect(credentials) };
  }

  /** A Bot API method with the bot's token; its `result`. */
  async #call<T>(token: string, method: string, body: NetworkRequestBody, signal?: AbortSignal): Promise<T> {
    const { body: answer } = await this.#http.send<{ result: T }>({ method: 'POST', url: `${this.#baseUrl}/bot${token}/${method}`, body, signal });
    return answer.result;
  }

  async #connect(credentials: Record<string, string>): Promise<{ identity: RemoteIdentity; tokens: ProviderTokens }> {
    const token = credentials.botToken!;
    const bot = await this.#call<User>(token, 'getMe', { json: {} }).catch((error: unknown) => {
      throw error instanceof ProviderError && error.tokenRejected
        ? new ProviderError('CREDENTIALS_REJECTED', `${error.message} The token is not one of a bot (ask @BotFather for it).`, false, { field: 'botToken' })
        : error;
    });
    const asked = (error: unknown) => {
      throw error instanceof ProviderError && error.code === 'PROVIDER_REJECTED'
        ? new ProviderError('CREDENTIALS_REJECTED', error.message, false, { field: 'chat' })
        : error;
    };
    const chat = await this.#call<Chat>(token, 'getChat', { json: { chat_id: credentials.chat } }).catch(asked);
    const member = await this.#call<ChatMember>(token, 'getChatMember', { json: { chat_id: chat.id, user_id: bot.id } }).catch(asked);
    const name = chat.title ?? chat.username ?? String(chat.id);
    if (chat.type === 'private' || !mayPost(chat, member)) {
      const needed = chat.type === 'channel' ? 'an administrator with the right to post messages' : 'a member allowed to send messages';
      throw new ProviderError(
        'CREDENTIALS_REJECTED',
        chat.type === 'private' ? 'Telegram: this is a private chat; name a channel or a group.' : `Telegram: @${bot.username} is not ${needed} in ${name}.`,
        false,
        { field: 'chat' },
      );
    }
    return {
      identity: { remoteId: String(chat.id), username: chat.username ?? String(chat.id), displayName: name },
      tokens: {
        accessToken: token,
        extra: { chatId: String(chat.id), ...(chat.username ? { chatUsername: chat.username } : {}), botId: String(bot.id), botUsername: bot.username ?? '' },
      },
    };
  }

  async publish(request: PublishRequest): Promise<PublishOutcome> {
    const { accessToken, extra } = request.account.tokens ?? { accessToken: '' };
    const chat = { id: extra?.chatId ?? request.account.remoteId ?? '', username: extra?.chatUsername };
    const steps = new Steps(request.checkpoint);
    const messageId = await steps.once('message', () => this.#send(accessToken, chat.id, request), {
      ifInterrupted: async () => {
        // Recording that it was said clears the started send: the retry the person asks for then sends.
        await steps.record('uncertain', true);
        throw new ProviderError(
          'PROVIDER_REJECTED',
          'Telegram: an earlier attempt was cut off while sending, and Telegram lets bots look up no message they sent, so it was not sent again. Look in the chat; retry the target only if the message is not there.',
          false,
        );
      },
    });
    return { status: 'published', item: { remoteId: String(messageId), remoteUrl: messageUrl(chat, messageId) } };
  }

  /** The post as one message (text, a photo, a video) or one album: the id of its (first) message. */
  async #send(token: string, chatId: string, request: PublishRequest): Promise<number> {
    const { caption, media, signal } = request;
    const common = { chat_id: chatId, disable_notification: request.settings.silent === true };
    if (!media.length) return (await this.#call<Message>(token, 'sendMessage', { json: { ...common, text: caption } }, signal)).message_id;
    const fields = { chat_id: chatId, disable_notification: String(common.disable_notification) };
    const files = media.map((item, index) => ({ field: `file${index}`, filename: item.id, media: item }));
    if (media.length === 1) {
      const type = inputType(media[0]!);
      const body = multipartFilesBody({ ...fields, ...(caption ? { caption } : {}) }, [{ ...files[0]!, field: type }]);
      return (await this.#call<Message>(token, type === 'video' ? 'sendVideo' : 'sendPhoto', body, signal)).message_id;
    }
    const album = media.map((item, index) => ({
      type: inputType(item),
      media: `attach://file${index}`,
      ...(index === 0 && caption ? { caption } : {}),
      ...(item.kind === 'video' ? { supports_streaming: true, ...(item.width && item.height ? { width: item.width, height: item.height } : {}) } : {}),
    }));
    const messages = await this.#call<Message[]>(token, 'sendMediaGroup', multipartFilesBody({ ...fields, media: JSON.stringify(album) }, files), signal);
    return messages[0]!.message_id;
  }

  /** The Bot API gives bots no counts of views or reactions for their messages: nothing to read. */
  async metrics(_account: ConnectedAccount, _remoteId: string): Promise<ItemMetrics> {
    return {};
  }
}

// TikTok's API v2 as every TikTok call reaches it: JSON under TIKTOK_API_BASE_URL, each answer in TikTok's envelope
// `{data, error: {code, message, log_id}}` with `code: "ok"` on success
// (https://developers.tiktok.com/doc/tiktok-api-v2-error-handling), and the upload URLs TikTok hands out, which are
// its word and so go through the SSRF guard. What its codes mean here, read whatever the HTTP status (refusals
// are reported with HTTP 200 too):
//   access_token_invalid                  the token is refused (401): refreshed once, then the account reconnects
//   scope_not_authorized, scope_permission_missed
//                                         the person did not grant what the call needs: reconnect and grant it
//   rate_limit_exceeded, HTTP 429         throttled, without saying for how long: the worker backs off (kit/backoff.ts)
//   spam_risk_too_many_posts              the creator's daily cap of API posts (not published by TikTok) is reached;
//   reached_active_user_cap               the app's daily cap of posting users: both wait an hour and try again
//   internal_error, HTTP 5xx              transient
//   anything else                         a refusal, with TikTok's message (privacy_level_option_mismatch,
//                                         url_ownership_unverified, unaudited_client_can_only_post_to_private_accounts, ...)
import { AnswerTooLarge } from '../../outbound/answerLimit.ts';
import { ProviderError } from '../adapter.ts';
import { tooLarge, type NetworkRequestBody } from '../http.ts';
import { NetworkApi, type NetworkApiOptions } from '../kit/networkApi.ts';
import { parseKeepingLargeIntegers } from '../kit/preciseJson.ts';

interface Envelope {
  data?: unknown;
  error?: { code?: string; message?: string; log_id?: string };
  error_description?: string;
}

const capWaitMs = 3600_000;

function envelopeOf(body: unknown): Envelope {
  return typeof body === 'object' && body !== null ? (body as Envelope) : {};
}

function reasonOf(body: unknown): string | undefined {
  if (typeof body === 'string') return body ? `TikTok: ${body.slice(0, 300)}` : undefined;
  const { error, error_description: description } = envelopeOf(body);
  if (error?.code && error.code !== 'ok') return `TikTok: ${error.message || error.code} (${error.code})`;
  return description ? `TikTok: ${description}` : undefined;
}

/** What an answer means when it is not a success: TikTok's error code first, else the HTTP status. */
export function failureOf(status: number, body: unknown): ProviderError | undefined {
  const code = envelopeOf(body).error?.code;
  if (status < 300 && (!code || code === 'ok')) return undefined;
  const reason = reasonOf(body) ?? `TikTok answered HTTP ${status}.`;
  if (code === 'access_token_invalid' || (status === 401 && !code?.startsWith('scope_')))
    return new ProviderError('ACCOUNT_NEEDS_RECONNECT', reason, false, { tokenRejected: true });
  if (code?.startsWith('scope_')) return new ProviderError('ACCOUNT_NEEDS_RECONNECT', `${reason} Connect the account again and allow it.`, false);
  if (code === 'rate_limit_exceeded' || status === 429) return new ProviderError('RATE_LIMITED_BY_PROVIDER', reason, true);
  if (code === 'spam_risk_too_many_posts' || code === 'reached_active_user_cap')
    return new ProviderError('RATE_LIMITED_BY_PROVIDER', reason, true, { retryAfterMs: capWaitMs });
  if (code === 'internal_error' || status >= 500) return new ProviderError('PROVIDER_UNAVAILABLE', reason, true);
  return new ProviderError('PROVIDER_REJECTED', reason, false);
}

export class TikTokApi extends NetworkApi {
  readonly #timeoutMs: number;

  constructor(options: NetworkApiOptions) {
    super(options, { network: 'TikTok', reasonOf, classify: ({ status, body }) => failureOf(status, body) });
    this.#timeoutMs = options.timeoutMs;
  }

  /** A call at `path` (/v2/…) answering the envelope's `data`; a JSON body makes it a POST. */
  async call<T>(path: string, accessToken: string, json?: unknown, signal?: AbortSignal): Promise<T> {
    const { body } = await this.send<Envelope>({
      method: json === undefined ? 'GET' : 'POST',
      path,
      accessToken,
      ...(json === undefined ? {} : { body: { json } }),
      signal,
    });
    return this.#dataOf<T>(200, body);
  }

  /** A PUT of bytes to an upload URL TikTok gave. */
  async upload(uploadUrl: string, body: NetworkRequestBody, headers: Record<string, string>, signal?: AbortSignal): Promise<number> {
    const { status } = await this.sendToGiven(uploadUrl, 'upload URL', { method: 'PUT', body, headers, signal });
    return status;
  }

  /**
   * A POST whose answer holds integers beyond 2^53 (the status's post ids), read without losing a digit: NetworkHttp
   * parses answers with JSON.parse, so this one call is made with its guarded fetch and parsed here.
   */
  async callPrecise<T>(path: string, accessToken: string, json: unknown, signal?: AbortSignal): Promise<T> {
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    let answer: Response;
    let text: string;
    try {
      answer = await this.api.fetch(`${this.baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json; charset=UTF-8', accept: 'application/json' },
        body: JSON.stringify(json),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      text = await answer.text();
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof AnswerTooLarge) throw tooLarge('TikTok', error);
      throw new ProviderError('PROVIDER_UNAVAILABLE', `TikTok could not be reached (${(error as Error).name}).`, true);
    }
    let body: unknown = text;
    try {
      body = parseKeepingLargeIntegers(text);
    } catch {
      // Not JSON: its text is the reason.
    }
    return this.#dataOf<T>(answer.status, body);
  }

  #dataOf<T>(status: number, body: unknown): T {
    const failure = failureOf(status, body);
    if (failure) throw failure;
    return (envelopeOf(body).data ?? {}) as T;
  }
}

// Pinterest's API v5 as every Pinterest call reaches it: JSON under <PINTEREST_API_BASE_URL>/v5 with the account's
// bearer token, error answers `{code, message}` (https://developers.pinterest.com/docs/api/v5/ "Errors"; 429 is
// code 8 with no header saying when to come back: the worker backs off, kit/backoff.ts), the token endpoint with
// HTTP Basic, and the upload URL a media registration hands out (Pinterest's word, so through the SSRF guard).
// An app with Trial access is refused pins in production: 403 `{"code": 29, "message": "Apps with Trial access may not
// create Pins in production https://api.pinterest.com - use API Sandbox https://api-sandbox.pinterest.com instead."}`
// (as received: gitroomhq/postiz-app#1084; code 29 is the OpenAPI description's 403), which no retry mends: the target
// fails with what the operator can do (https://developers.pinterest.com/docs/developer-tools/sandbox/).
import { ProviderError, type ProviderTokens } from '../adapter.ts';
import { NetworkHttp, type NetworkRequest, type NetworkResponse } from '../http.ts';
import { NetworkApi, type NetworkApiOptions, type NetworkCall } from '../kit/networkApi.ts';

function reasonOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return typeof body === 'string' && body ? `Pinterest: ${body.slice(0, 300)}` : undefined;
  const { message } = body as { message?: unknown };
  return typeof message === 'string' && message ? `Pinterest: ${message}` : undefined;
}

/** Pinterest's refusal of a Trial app's pin, with the operator's two ways out (within the 300 characters shown); undefined for any other answer. */
function trialAccessRefusal(status: number, body: unknown): ProviderError | undefined {
  const { code, message } = (typeof body === 'object' && body !== null ? body : {}) as { code?: unknown; message?: unknown };
  if (status !== 403 || code !== 29 || typeof message !== 'string' || !/trial access/i.test(message)) return undefined;
  return new ProviderError(
    'PROVIDER_REJECTED',
    "Pinterest refuses pins from this installation's app: it has Trial access (code 29). Apply for Standard access on the app's page at developers.pinterest.com, or set PINTEREST_API_BASE_URL=https://api-sandbox.pinterest.com to pin in Pinterest's API Sandbox.",
    false,
  );
}

/** What the token endpoint answers (OauthAccessTokenResponse). */
interface TokenAnswer {
  access_token?: string;
  refresh_token?: string;
  expires_in?: number;
  scope?: string;
}

export class PinterestApi extends NetworkApi {
  readonly #tokens: NetworkHttp;

  constructor(options: NetworkApiOptions) {
    super(options, { network: 'Pinterest', reasonOf, classify: ({ status, body }) => trialAccessRefusal(status, body) });
    // The token endpoint refuses a grant with `{code, message}`, not RFC 6749's `error`: any refusal but throttling
    // means the refresh token is dead and the account must be connected again.
    this.#tokens = new NetworkHttp({
      network: 'Pinterest',
      reasonOf,
      timeoutMs: options.timeoutMs,
      retryDelayMs: options.retryDelayMs,
      classify: ({ status, reason }) =>
        status >= 400 && status < 500 && status !== 429 ? new ProviderError('ACCOUNT_NEEDS_RECONNECT', reason, false) : undefined,
    });
  }

  /** A call to `<base>/v5<path>`. */
  override send<T>(call: NetworkCall): Promise<NetworkResponse<T>> {
    return super.send<T>({ ...call, path: `/v5${call.path}` });
  }

  /** The multipart POST of a file to the upload URL a media registration gave (S3's form upload: 204). */
  async upload(uploadUrl: unknown, call: Pick<NetworkRequest, 'body' | 'signal'>): Promise<void> {
    await this.sendToGiven(uploadUrl, 'upload URL', { ...call, method: 'POST' });
  }

  /**
   * New tokens for the refresh token (POST /v5/oauth/token, grant_type=refresh_token). `continuous_refresh` asks
   * apps made before 25 September 2025 for the continuous refresh token later ones always get: each refresh answers
   * a new one (60 days), which replaces the old.
   */
  async refresh(app: { clientId: string; clientSecret: string }, tokens: ProviderTokens): Promise<ProviderTokens> {
    if (!tokens.refreshToken) throw new ProviderError('ACCOUNT_NEEDS_RECONNECT', 'Pinterest gave no refresh token: connect the account again.', false);
    const basic = Buffer.from(`${encodeURIComponent(app.clientId)}:${encodeURIComponent(app.clientSecret)}`).toString('base64');
    const { body } = await this.#tokens.send<TokenAnswer>({
      method: 'POST',
      url: `${this.baseUrl}/v5/oauth/token`,
      headers: { authorization: `Basic ${basic}` },
      body: { form: { grant_type: 'refresh_token', refresh_token: tokens.refreshToken, continuous_refresh: 'true' } },
    });
    if (!body.access_token) throw new ProviderError('PROVIDER_UNAVAILABLE', 'Pinterest answered a refresh without an access token.', true);
    return {
      accessToken: body.access_token,
      refreshToken: body.refresh_token ?? tokens.refreshToken,
      expiresAt: body.expires_in === undefined ? undefined : new Date(Date.now() + body.expires_in * 1000).toISOString(),
      scope: body.scope ?? tokens.scope,
      extra: tokens.extra,
    };
  }
}

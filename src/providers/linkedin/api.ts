// LinkedIn's API as every LinkedIn call reaches it: the versioned REST API under /rest, which wants
// `LinkedIn-Version: YYYYMM` and `X-Restli-Protocol-Version: 2.0.0` on each call
// (https://learn.microsoft.com/linkedin/marketing/versioning), and the upload URLs LinkedIn hands out, which are
// its word and so go through the SSRF guard. Its error answers are `{message, status, serviceErrorCode}`; it
// throttles with 429 and no header saying for how long (limits count per day and reset at midnight UTC:
// https://learn.microsoft.com/linkedin/shared/api-guide/concepts/rate-limits): the worker then backs off (kit/backoff.ts).
import { NetworkHttp, type NetworkRequest, type NetworkResponse } from '../http.ts';

export interface LinkedInApiOptions {
  /** LINKEDIN_API_BASE_URL */
  baseUrl: string;
  version: string;
  timeoutMs: number;
  /** NETWORK_ALLOWED_HOSTS: upload URLs are LinkedIn's word and may name only public hosts, or these. */
  allowedHosts: ReadonlySet<string>;
  retryDelayMs?: number;
}

/** `{message, status, serviceErrorCode}`, LinkedIn's error answer (https://learn.microsoft.com/linkedin/shared/api-guide/concepts/error-handling). */
function reasonOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return typeof body === 'string' && body ? body.slice(0, 300) : undefined;
  const { message, error_description: description } = body as { message?: unknown; error_description?: unknown };
  if (typeof message === 'string' && message) return `LinkedIn: ${message}`;
  return typeof description === 'string' && description ? `LinkedIn: ${description}` : undefined;
}

export type LinkedInCall = Omit<NetworkRequest, 'url'> & { path: string };

export class LinkedInApi {
  readonly #api: NetworkHttp;
  readonly #uploads: NetworkHttp;
  readonly #baseUrl: string;
  readonly #version: string;

  constructor(options: LinkedInApiOptions) {
    const common = { network: 'LinkedIn', reasonOf, timeoutMs: options.timeoutMs, retryDelayMs: options.retryDelayMs };
    // The API's host is the operator's setting; upload URLs are LinkedIn's answer.
    this.#api = new NetworkHttp(common);
    this.#uploads = new NetworkHttp({ ...common, allowedHosts: options.allowedHosts });
    this.#baseUrl = options.baseUrl;
    this.#version = options.version;
  }

  /** A call to LinkedIn's API at `path` (/rest/… versioned, /v2/userinfo not). */
  send<T>(call: LinkedInCall): Promise<NetworkResponse<T>> {
    const { path, headers, ...rest } = call;
    const versioned: Record<string, string> = path.startsWith('/rest/') ? { 'linkedin-version': this.#version, 'x-restli-protocol-version': '2.0.0' } : {};
    return this.#api.send<T>({ ...rest, url: `${this.#baseUrl}${path}`, headers: { ...versioned, ...headers } });
  }

  /** A PUT of bytes to an upload URL LinkedIn gave (images, video parts); answers its headers (a part's ETag). */
  async upload(uploadUrl: unknown, call: Pick<NetworkRequest, 'accessToken' | 'body' | 'signal'>): Promise<NetworkResponse<unknown>> {
    return this.#uploads.send({ ...call, method: 'PUT', url: this.#uploads.urlFromNetwork(uploadUrl, 'upload URL') });
  }
}

/** Rest.li 2.0's encoding of a URN inside a query or a path: every reserved character percent-encoded. */
export const restliUrn = (urn: string) => encodeURIComponent(urn);

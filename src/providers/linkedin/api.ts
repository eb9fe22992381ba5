// LinkedIn's API as every LinkedIn call reaches it: the versioned REST API under /rest, which wants
// `LinkedIn-Version: YYYYMM` and `X-Restli-Protocol-Version: 2.0.0` on each call
// (https://learn.microsoft.com/linkedin/marketing/versioning), and the upload URLs LinkedIn hands out, which are
// its word and so go through the SSRF guard. Its error answers are `{message, status, serviceErrorCode}`; it
// throttles with 429 and no header saying for how long (limits count per day and reset at midnight UTC:
// https://learn.microsoft.com/linkedin/shared/api-guide/concepts/rate-limits): the worker then backs off (kit/backoff.ts).
import type { NetworkRequest, NetworkResponse } from '../http.ts';
import { NetworkApi, type NetworkApiOptions, type NetworkCall } from '../kit/networkApi.ts';

export interface LinkedInApiOptions extends NetworkApiOptions {
  version: string;
}

/** `{message, status, serviceErrorCode}`, LinkedIn's error answer (https://learn.microsoft.com/linkedin/shared/api-guide/concepts/error-handling). */
function reasonOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return typeof body === 'string' && body ? body.slice(0, 300) : undefined;
  const { message, error_description: description } = body as { message?: unknown; error_description?: unknown };
  if (typeof message === 'string' && message) return `LinkedIn: ${message}`;
  return typeof description === 'string' && description ? `LinkedIn: ${description}` : undefined;
}

export class LinkedInApi extends NetworkApi {
  readonly #version: string;

  constructor(options: LinkedInApiOptions) {
    // Its upload URLs are at www.linkedin.com (/dms-uploads/…) and api.linkedin.com (/mediaUpload/…): the Images and
    // Videos API references (https://learn.microsoft.com/linkedin/marketing/community-management/shares/images-api,
    // …/videos-api) and the Assets API's (…/vector-asset-api). The PUT carries the member's token, so only there.
    super(options, { network: 'LinkedIn', reasonOf, tokenHosts: ['linkedin.com', '*.linkedin.com'] });
    this.#version = options.version;
  }

  /** A call to LinkedIn's API at `path` (/rest/… versioned, /v2/userinfo not). */
  override send<T>(call: NetworkCall): Promise<NetworkResponse<T>> {
    const versioned: Record<string, string> = call.path.startsWith('/rest/') ? { 'linkedin-version': this.#version, 'x-restli-protocol-version': '2.0.0' } : {};
    return super.send<T>({ ...call, headers: { ...versioned, ...call.headers } });
  }

  /** A PUT of bytes to an upload URL LinkedIn gave (images, video parts); answers its headers (a part's ETag). */
  async upload(uploadUrl: unknown, call: Pick<NetworkRequest, 'accessToken' | 'body' | 'signal'>): Promise<NetworkResponse<unknown>> {
    return this.sendToGiven(uploadUrl, 'upload URL', { ...call, method: 'PUT' });
  }
}

/** Rest.li 2.0's encoding of a URN inside a query or a path: every reserved character percent-encoded. */
export const restliUrn = (urn: string) => encodeURIComponent(urn);

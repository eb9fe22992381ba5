// A network's API client: calls at paths of its API, at the host the operator set, and calls to the URLs the network
// hands over in its answers (upload URLs, upload sessions), which may name only public hosts or NETWORK_ALLOWED_HOSTS,
// and which get the account's token only at the network's own hosts (`tokenHosts`) or the API's.
import { ProviderError } from '../adapter.ts';
import { NetworkHttp, type NetworkHttpOptions, type NetworkRequest, type NetworkResponse } from '../http.ts';

/** Where a network's API is, and how its calls are made (kit/oauthAdapter.ts's `apiOptions`). */
export interface NetworkApiOptions {
  baseUrl: string;
  timeoutMs: number;
  /** NETWORK_ALLOWED_HOSTS: URLs the network hands over may name only public hosts, or these. */
  allowedHosts: ReadonlySet<string>;
  retryDelayMs?: number;
}

export type NetworkCall = Omit<NetworkRequest, 'url'> & { path: string };

export interface NetworkIdentity extends Pick<NetworkHttpOptions, 'network' | 'reasonOf' | 'classify'> {
  /**
   * Hosts of the network's own where a URL it hands over may get the account's token: exact names, or `*.` and a
   * domain for any host under it. The API's host (its `_API_BASE_URL`, a stand-in's too) always may. None: the
   * token goes to no URL the network hands over.
   */
  tokenHosts?: readonly string[];
}

/** Whether `host` is one of `patterns` (`*.example.com`: any host under example.com). */
const hostIn = (host: string, patterns: readonly string[]) =>
  patterns.some((pattern) => (pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : host === pattern));

export class NetworkApi {
  /** The API's host is the operator's setting, not the outbound guard's business. */
  protected readonly api: NetworkHttp;
  /** The URLs the network hands over: each passes the outbound guard. */
  readonly uploads: NetworkHttp;
  protected readonly baseUrl: string;
  readonly #network: string;
  readonly #tokenHosts: readonly string[];

  constructor(options: NetworkApiOptions, { tokenHosts = [], ...network }: NetworkIdentity) {
    const common = { ...network, timeoutMs: options.timeoutMs, retryDelayMs: options.retryDelayMs };
    this.api = new NetworkHttp(common);
    this.uploads = new NetworkHttp({ ...common, allowedHosts: options.allowedHosts });
    this.baseUrl = options.baseUrl;
    this.#network = network.network;
    this.#tokenHosts = tokenHosts;
  }

  /** A call at `path` of the API. */
  send<T>(call: NetworkCall): Promise<NetworkResponse<T>> {
    const { path, ...rest } = call;
    return this.api.send<T>({ ...rest, url: `${this.baseUrl}${path}` });
  }

  /** A call to a URL the network gave (`what` names it if refused). */
  sendToGiven<T>(url: unknown, what: string, call: Omit<NetworkRequest, 'url'>): Promise<NetworkResponse<T>> {
    return this.uploads.send<T>({ ...call, url: this.givenUrl(url, what, { withToken: call.accessToken !== undefined }) });
  }

  /**
   * A URL the network gave, once it passes the guard, and, when the account's token is to go with it, once it is
   * at one of the network's own hosts (an answer naming any other host must not collect the token).
   */
  givenUrl(url: unknown, what: string, { withToken }: { withToken: boolean }): string {
    const checked = new URL(this.uploads.urlFromNetwork(url, what));
    if (withToken && checked.host !== new URL(this.baseUrl).host && !hostIn(checked.hostname, this.#tokenHosts)) {
      throw new ProviderError(
        'PROVIDER_UNAVAILABLE',
        `${this.#network} named a ${what} at ${checked.hostname}, which is not one of its own hosts; the account's token is not sent there.`,
        false,
      );
    }
    return checked.href;
  }
}

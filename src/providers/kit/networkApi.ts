// A network's API client: calls at paths of its API, at the host the operator set, and calls to the URLs the network
// hands over in its answers (upload URLs, upload sessions), which may name only public hosts or NETWORK_ALLOWED_HOSTS.
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

export class NetworkApi {
  /** The API's host is the operator's setting, not the outbound guard's business. */
  protected readonly api: NetworkHttp;
  /** The URLs the network hands over: each passes the outbound guard. */
  readonly uploads: NetworkHttp;
  protected readonly baseUrl: string;

  constructor(options: NetworkApiOptions, network: Pick<NetworkHttpOptions, 'network' | 'reasonOf' | 'classify'>) {
    const common = { ...network, timeoutMs: options.timeoutMs, retryDelayMs: options.retryDelayMs };
    this.api = new NetworkHttp(common);
    this.uploads = new NetworkHttp({ ...common, allowedHosts: options.allowedHosts });
    this.baseUrl = options.baseUrl;
  }

  /** A call at `path` of the API. */
  send<T>(call: NetworkCall): Promise<NetworkResponse<T>> {
    const { path, ...rest } = call;
    return this.api.send<T>({ ...rest, url: `${this.baseUrl}${path}` });
  }

  /** A call to a URL the network gave (`what` names it if the guard refuses it). */
  sendToGiven<T>(url: unknown, what: string, call: Omit<NetworkRequest, 'url'>): Promise<NetworkResponse<T>> {
    return this.uploads.send<T>({ ...call, url: this.uploads.urlFromNetwork(url, what) });
  }
}

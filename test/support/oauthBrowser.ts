// A person's browser in an OAuth connection, as far as the service can tell one from another: its cookies. It
// opens the start link that POST /v1/social-accounts/connect answers (keeping the binding cookie set there; where the
// link answers its page asking the visitor first, it presses Continue), lets the network redirect it, and brings its
// cookies back to the callback. Requests to PUBLIC_BASE_URL go to the test
// server; cookies are matched by path, and an expired one (a cleared cookie) is dropped.
import { parseSetCookie, stringifyCookie, type SetCookie } from 'cookie';

export interface CallbackAnswer {
  status: number;
  location: URL | null;
  body: any;
}

export class OAuthBrowser {
  readonly #cookies = new Map<string, SetCookie>();

  constructor(
    private readonly serviceUrl: string,
    private readonly publicBaseUrl: string,
  ) {}

  /** The cookie of `name` whose path is `path`, as the service set it. */
  cookie(name: string, path: string): SetCookie | undefined {
    return this.#cookies.get(`${path};${name}`);
  }

  /** Keeps a cookie as though the service had set it (the dashboard's session, signed in elsewhere). */
  keep(name: string, value: string, path = '/'): void {
    this.#cookies.set(`${path};${name}`, { name, value, path });
  }

  /** A GET (or, with `form`, a form's POST) at the service (a URL on PUBLIC_BASE_URL or the test server), without following redirects. */
  async visit(target: string, headers: Record<string, string> = {}, form?: Record<string, string>): Promise<Response> {
    const url = new URL(target.replace(this.publicBaseUrl, this.serviceUrl));
    const sent = [...this.#cookies.values()].filter(
      (cookie) => url.pathname === cookie.path || url.pathname.startsWith(cookie.path!.endsWith('/') ? cookie.path! : `${cookie.path}/`),
    );
    const cookieHeader = stringifyCookie(Object.fromEntries(sent.map((cookie) => [cookie.name, cookie.value])));
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { ...headers, ...(sent.length ? { cookie: cookieHeader } : {}) },
      ...(form ? { method: 'POST', body: new URLSearchParams(form) } : {}),
    });
    for (const line of response.headers.getSetCookie()) {
      const cookie = parseSetCookie(line);
      const key = `${cookie.path ?? '/'};${cookie.name}`;
      if (cookie.expires && cookie.expires <= new Date()) this.#cookies.delete(key);
      else this.#cookies.set(key, { ...cookie, path: cookie.path ?? '/' });
    }
    return response;
  }

  /** Opens the start link (continuing on its page, if it answers one): the network's authorization URL it redirects to. */
  async start(authorizationUrl: string): Promise<URL> {
    let response = await this.visit(authorizationUrl);
    if (response.status === 200) response = await this.continueOn(authorizationUrl, await response.text());
    if (response.status !== 302 && response.status !== 303) throw new Error(`the start link answered ${response.status}: ${await response.text()}`);
    return new URL(response.headers.get('location')!);
  }

  /** Presses Continue on the start link's page (`page`, its HTML): posts its form to the link. */
  async continueOn(authorizationUrl: string, page: string): Promise<Response> {
    const confirmation = /name="confirmation" value="([^"]*)"/.exec(page)?.[1];
    if (confirmation === undefined) throw new Error(`the start link answered a page without its Continue: ${page}`);
    return this.visit(authorizationUrl, {}, { confirmation });
  }

  /** Opens the callback URL the network sent the person to, as the service answers it. */
  async callback(url: string, headers: Record<string, string> = {}): Promise<CallbackAnswer> {
    const response = await this.visit(url, headers);
    const location = response.headers.get('location');
    return { status: response.status, location: location ? new URL(location) : null, body: location ? null : await response.json() };
  }
}

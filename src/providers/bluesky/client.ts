// The account's session at its PDS through @atproto/api, shared by the publisher (adapter.ts) and the inbox
// (inbox.ts): one Agent per service, every connection through the SSRF guard, each call with the session's JWT, the
// job's signal and a timeout; and records written under a key of ours only if absent, so no attempt writes twice.
import type { Agent } from '@atproto/api';
import { ProviderError } from '../adapter.ts';
import type { ConnectedAccount, PublishedItem } from '../adapter.ts';
import { networkFetch } from '../http.ts';
import { xrpcErrorName } from './errors.ts';
import { atproto } from './sdk.ts';

export const postCollection = 'app.bsky.feed.post';

/** An account's session at one service: its DID and the JWT every call carries. */
export interface Session {
  agent: Agent;
  did: string;
  service: string;
  authorization: string;
}

export interface ClientSettings {
  /** Hosts a PDS may be on even when private, and over http (NETWORK_ALLOWED_HOSTS). */
  allowedHosts: ReadonlySet<string>;
  /** For each call to the PDS (NETWORK_TIMEOUT_MS); default 15 s. */
  timeoutMs?: number;
}

/** Where a record is: the repository (a DID), its collection and its record key. */
export interface RecordPlace {
  repo: string;
  collection: string;
  rkey: string;
}

export class BlueskyClient {
  readonly timeoutMs: number;
  /** One client per service (PDS or entryway): building an Agent costs milliseconds, so it is not done per call. */
  readonly #agents = new Map<string, Agent>();
  /** PDS and entryway hosts are named by people: every connection to them goes through the SSRF guard. */
  readonly #fetch: typeof fetch;

  constructor(settings: ClientSettings) {
    this.timeoutMs = settings.timeoutMs ?? 15_000;
    this.#fetch = networkFetch(settings.allowedHosts);
  }

  async agentFor(service: string): Promise<Agent> {
    let agent = this.#agents.get(service);
    if (!agent) {
      if (this.#agents.size >= 1000) this.#agents.clear();
      agent = new (await atproto()).Agent({ service, fetch: this.#fetch });
      this.#agents.set(service, agent);
    }
    return agent;
  }

  /** The account's session: the access JWT at its PDS, or the refresh JWT at the service that made the session. */
  async session(account: ConnectedAccount, token: 'access' | 'refresh' = 'access'): Promise<Session> {
    const tokens = account.tokens;
    const did = tokens?.extra?.did;
    const pdsUrl = tokens?.extra?.pdsUrl;
    const jwt = token === 'access' ? tokens?.accessToken : tokens?.refreshToken;
    if (!tokens || !did || !pdsUrl || !jwt) throw new ProviderError('ACCOUNT_NEEDS_RECONNECT', 'The Bluesky account has no session; connect it again.', false);
    const service = token === 'access' ? pdsUrl : (tokens.extra?.service ?? pdsUrl);
    return { agent: await this.agentFor(service), did, service, authorization: `Bearer ${jwt}` };
  }

  /** The session's JWT (when the call needs one), the job's signal (when there is one) and this call's timeout. */
  callOptions(session?: Session, signal?: AbortSignal, timeoutMs = this.timeoutMs) {
    const timeout = AbortSignal.timeout(timeoutMs);
    return {
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      ...(session ? { headers: { authorization: session.authorization } } : {}),
    };
  }

  /**
   * Writes the record at `place` only if absent (`swapRecord: null`); when it exists, an earlier attempt wrote it and
   * its cid is read back. Answers the record's strong ref's cid.
   */
  async putOnce(session: Session, place: RecordPlace, record: { $type: string }, signal: AbortSignal): Promise<string> {
    try {
      const { data } = await session.agent.com.atproto.repo.putRecord({ ...place, record, swapRecord: null }, this.callOptions(session, signal));
      return data.cid;
    } catch (error) {
      if ((await xrpcErrorName(error)) !== 'InvalidSwap') throw error;
      const { data } = await session.agent.com.atproto.repo.getRecord(place, this.callOptions(session, signal));
      return data.cid ?? '';
    }
  }

  /** The record's cid at `place`, or null when there is none. */
  async findRecord(session: Session, place: RecordPlace, signal?: AbortSignal): Promise<string | null> {
    try {
      const { data } = await session.agent.com.atproto.repo.getRecord(place, this.callOptions(session, signal));
      return data.cid ?? '';
    } catch (error) {
      if ((await xrpcErrorName(error)) === 'RecordNotFound') return null;
      throw error;
    }
  }
}

/** A post's page on bsky.app (`at://<did>/app.bsky.feed.post/<rkey>` by its author's handle or DID). */
export function postItem(actor: string, uri: string): PublishedItem {
  return { remoteId: uri, remoteUrl: `https://bsky.app/profile/${actor}/post/${uri.split('/').pop()}` };
}

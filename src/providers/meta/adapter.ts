// What the adapters of Meta's networks (Facebook, Instagram, Threads) start from: the OAuth link, a Graph client at
// the network's host, and the account's id and token there.
import { ProviderError, type ConnectedAccount } from '../adapter.ts';
import type { NetworkTraits } from '../kit/networkAdapter.ts';
import { OAuthAdapter } from '../kit/oauthAdapter.ts';
import { tokensOf, type OAuthLink } from '../kit/oauthLink.ts';
import type { Graph } from './graph.ts';

export abstract class MetaAdapter extends OAuthAdapter {
  protected readonly graph: Graph;

  constructor(traits: NetworkTraits, graph: Graph, link: OAuthLink) {
    super(traits, link);
    this.graph = graph;
  }

  protected idAndToken(account: ConnectedAccount): { id: string; token: string } {
    return idAndTokenOf(account, this.rules.displayName);
  }
}

/** The account's id at Meta (a Page, an Instagram or Threads user) and its token; an account without one must connect again. */
export function idAndTokenOf(account: ConnectedAccount, displayName: string): { id: string; token: string } {
  if (!account.remoteId) throw new ProviderError('ACCOUNT_NEEDS_RECONNECT', `The ${displayName} account has no id at Meta: connect it again.`, false);
  return { id: account.remoteId, token: tokensOf(account).accessToken };
}

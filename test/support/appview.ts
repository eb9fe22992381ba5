// The real Bluesky AppView (@atproto/bsky) beside the test PDS: pds.ts starts it in its child process when asked
// (`startPds({appView: …})`). Its dataplane keeps what it indexes in PostgreSQL (a schema of the test's database)
// and follows the PDS's firehose (com.atproto.sync.subscribeRepos); its API answers app.bsky.* reads, which the PDS
// passes on to it with a service-auth JWT (https://atproto.com/specs/xrpc#inter-service-authentication-jwt) that the
// AppView checks against the account's signing key in the PLC directory. Replies, deletes and blocks are therefore
// what Bluesky's own code makes of them, not a model of it. Settings follow @atproto/dev-env's TestBsky
// (packages/dev-env/src/bsky.ts); the bsync service (mutes, bookmarks) is left out: nothing here reads it.
import * as bsky from '@atproto/bsky';
import { Secp256k1Keypair } from '@atproto/crypto';
import { freePort } from '../../src/net.ts';

export interface AppViewOptions {
  /** A PostgreSQL database of the test's own: the AppView migrates and uses the schema `bsky` in it. */
  databaseUrl: string;
}

export interface RunningAppView {
  url: string;
  did: string;
  /** Resolves once the AppView has indexed every event the PDS has sequenced up to `lastSeq`. */
  indexed(lastSeq: () => Promise<number | null>): Promise<void>;
  close(): Promise<void>;
}

const schema = 'bsky';

/**
 * The AppView verifies each account's handle (https://atproto.com/specs/handle#handle-resolution: a DNS TXT record,
 * or https://<handle>/.well-known/atproto-did) and shows `handle.invalid` where it fails. The test PDS's handles
 * (`<name>.test`) have neither, so that request is answered by the PDS's own com.atproto.identity.resolveHandle.
 */
function handlesAt(pdsUrl: string): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    if (url.pathname !== '/.well-known/atproto-did' || !url.hostname.endsWith('.test')) return fetch(input, init);
    const answer = await fetch(`${pdsUrl}/xrpc/com.atproto.identity.resolveHandle?handle=${url.hostname}`, { signal: init?.signal ?? null });
    return answer.ok ? new Response(((await answer.json()) as { did: string }).did) : new Response('', { status: 404 });
  };
}

/** Starts the AppView for the PDS that will listen on `pdsPort` (it connects to the firehose once the PDS is up). */
export async function startAppView(options: AppViewOptions, plcUrl: string, pdsPort: number): Promise<RunningAppView> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  // The PDS is told the AppView's URL and DID, so nothing resolves the DID: it need not be in the directory.
  const did = `did:web:localhost%3A${port}` as const;
  const migrations = new bsky.Database({ url: options.databaseUrl, schema });
  await migrations.migrateToLatestOrThrow();
  await migrations.close();
  const db = new bsky.Database({ url: options.databaseUrl, schema, poolSize: 10 });
  const dataplanePort = await freePort();
  const dataplane = await bsky.DataPlaneServer.create(db, dataplanePort, plcUrl, handlesAt(`http://localhost:${pdsPort}`));
  const config = new bsky.ServerConfig({
    version: 'test',
    port,
    didPlcUrl: plcUrl,
    publicUrl: url,
    serverDid: did,
    alternateAudienceDids: [],
    dataplaneUrls: [`http://localhost:${dataplanePort}`],
    dataplaneHttpVersion: '1.1',
    // Not called by anything the tests read (bsync keeps mutes and bookmarks).
    bsyncUrl: 'http://bsync.invalid',
    bsyncHttpVersion: '1.1',
    modServiceDid: 'did:example:invalid',
    labelsFromIssuerDids: [],
    bigThreadUris: new Set(),
    maxThreadParents: 50,
    disableSsrfProtection: true,
    searchTagsHide: new Set(),
    searchTagsHideAll: new Set(),
    threadTagsBumpDown: new Set(),
    threadTagsHide: new Set(),
    visibilityTagHide: '',
    visibilityTagRankPrefix: '',
    debugFieldAllowedDids: new Set(),
    draftsLimit: 500,
    feedGenSkeletonTimeout: 5000,
    adminPasswords: [],
    etcdHosts: [],
  });
  const server = bsky.BskyAppView.create({ config, signingKey: await Secp256k1Keypair.create() });
  const subscription = new bsky.RepoSubscription({ service: `ws://localhost:${pdsPort}`, db, idResolver: dataplane.idResolver });
  await server.start();
  void subscription.start();
  return {
    url,
    did,
    // As dev-env's TestNetwork.processFullSubscription: the subscription may call itself done before the PDS has
    // even emitted the last event, so its cursor is compared with the PDS's last sequence number.
    async indexed(lastSeq) {
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        await subscription.processAll();
        const [cursor, last] = await Promise.all([subscription.getCursor(), lastSeq()]);
        if (!last || (cursor && cursor >= last)) return;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      throw new Error('the AppView did not index the PDS within 10 s');
    },
    async close() {
      await subscription.destroy();
      await server.destroy();
      await dataplane.destroy();
      await db.close();
    },
  };
}

// The floor the service is measured against: node:http and a pg pool answering GET /v1/social-accounts with the
// same query and the same JSON as the service, for the workspace in WORKSPACE_ID. It reads no credentials and
// looks nothing else up. Env: DATABASE_URL, WORKSPACE_ID, PORT, HOST.
import { createServer } from 'node:http';
import pg from 'pg';

interface AccountRow {
  id: string;
  provider: string;
  username: string;
  display_name: string;
  status: string;
  needs_reconnect: boolean;
  avatar_url: string | null;
  connected_at: Date;
}

const limit = 25;
// The columns and order of the service's Prisma findMany (which also fetches limit + 1 rows).
const listSql = `SELECT id, workspace_id, provider, username, display_name, status, needs_reconnect, remote_id, avatar_url,
  encrypted_tokens, token_expires_at, connected_at, revoked_at
  FROM social_account WHERE workspace_id = $1 ORDER BY connected_at DESC, id DESC LIMIT $2`;

const workspaceId = process.env.WORKSPACE_ID;
if (!workspaceId) throw new Error('WORKSPACE_ID is required');
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });

async function listAccounts(): Promise<unknown> {
  const { rows } = await pool.query<AccountRow>(listSql, [workspaceId, limit + 1]);
  const hasMore = rows.length > limit;
  const data = rows.slice(0, limit).map((row) => ({
    id: row.id,
    provider: row.provider,
    displayName: row.display_name,
    username: row.username,
    status: row.status,
    needsReconnect: row.needs_reconnect,
    avatarUrl: row.avatar_url,
    connectedAt: row.connected_at.toISOString(),
  }));
  const last = data.at(-1);
  const nextCursor = hasMore && last ? Buffer.from(JSON.stringify([last.connectedAt, last.id])).toString('base64url') : null;
  return { data, pagination: { nextCursor, hasMore } };
}

const server = createServer((req, res) => {
  const send = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
  };
  const path = req.url?.split('?')[0];
  if (path === '/healthz') return send(200, { status: 'ok' });
  if (req.method !== 'GET' || path !== '/v1/social-accounts') return send(404, { error: 'not found' });
  listAccounts().then(
    (body) => send(200, body),
    () => send(500, { error: 'query failed' }),
  );
});
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');

process.on('SIGTERM', () => {
  server.close(() => void pool.end().then(() => process.exit(0)));
});

// Section `mcp`: `tools/call list_posts` over Streamable HTTP at /mcp against `GET /v1/posts`, on one server, with the
// same key and the same 25 posts (each with its target and rule validation). Both pay authentication, the rate limit
// and the request log; /mcp adds a server per request, JSON-RPC and the graph in-process. Target: >= 0.5 of REST.
import { benchRuntime, benchWorkspace, figuresLine, loadShape, measure, startChildServer, type Bench } from './support.ts';
import { connectSandbox } from '../test/support/fixtures.ts';

const posts = 25;
const restPath = `/v1/posts?limit=${posts}`;
const toolCall = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_posts', arguments: { limit: posts } } });

export async function mcp(bench: Bench): Promise<void> {
  const runtime = await benchRuntime(bench.serviceEnv);
  let workspace: { workspaceId: string; apiKey: string };
  let connectionId: string;
  try {
    workspace = await benchWorkspace(runtime.services, 'mcp', 'pro');
    connectionId = await connectSandbox(runtime.services, workspace.workspaceId);
  } finally {
    await runtime.stop();
  }
  const server = await startChildServer('bin/server.ts', { ...bench.serviceEnv, RATE_LIMIT_PER_MINUTE: '100000000' });
  try {
    const auth = { authorization: `Bearer ${workspace.apiKey}` };
    for (let i = 0; i < posts; i++) {
      const created = await fetch(`${server.url}/v1/posts`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ content: { caption: `Bench post ${i} #mcp` }, targets: [{ connectionId, placement: 'feed' }] }),
      });
      if (created.status !== 201) throw new Error(`POST /v1/posts answered ${created.status}: ${await created.text()}`);
    }
    const mcpHeaders = { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const check = await (await fetch(`${server.url}/mcp`, { method: 'POST', headers: mcpHeaders, body: toolCall })).json();
    const listed = check.result?.structuredContent?.posts?.length;
    if (listed !== posts) throw new Error(`tools/call list_posts listed ${listed} posts: ${JSON.stringify(check).slice(0, 500)}`);

    console.log(`${posts} posts per page, ${loadShape.connections} connections, ${loadShape.warmupSeconds} s warm-up, ${loadShape.seconds} s measured`);
    const rest = await measure(`${server.url}${restPath}`, auth);
    console.log(figuresLine(`GET ${restPath}`, rest));
    const tool = await measure(`${server.url}/mcp`, mcpHeaders, { method: 'POST', body: toolCall });
    console.log(figuresLine('POST /mcp tools/call list_posts (same page)', tool));
    console.log(`ratio mcp/rest = ${(tool.rps / rest.rps).toFixed(2)} (target >= 0.50)`);
    if (rest.non2xx || rest.errors || tool.non2xx || tool.errors)
      console.log('WARNING: not every request was answered with 2xx; the figures are not comparable');
  } finally {
    await server.stop();
  }
}

// `npm run mcp` / `sps mcp`: the MCP server over stdio, with the API key in SPS_API_KEY (mcp/stdio.ts).
import { requireSupportedNode } from './supportedNode.js';

requireSupportedNode();
const { serveStdio } = await import('../mcp/stdio.ts');
await serveStdio();

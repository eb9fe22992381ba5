#!/usr/bin/env node
// The operator CLI as a bin: checks the Node version, then loads the TypeScript sources through tsx.
import { requireSupportedNode } from './supportedNode.js';

requireSupportedNode();
const { register } = await import('tsx/esm/api');
register();
// `sps mcp` serves MCP over stdio; every other command is the operator CLI.
await import(process.argv[2] === 'mcp' ? './mcp.ts' : './cli.ts');

#!/usr/bin/env node
// The operator CLI as a bin: checks the Node version, then runs the compiled JavaScript (dist/, built on install).
import { requireSupportedNode } from './supportedNode.js';

requireSupportedNode();
// `sps mcp` serves MCP over stdio; every other command is the operator CLI.
await import(process.argv[2] === 'mcp' ? '../dist/bin/mcp.js' : '../dist/bin/cli.js');

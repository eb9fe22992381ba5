// The tool schemas agents read from tools/list: every input property described, and every schema portable by the
// MCP Inspector's --strict checks (test/support/schemaPortability.ts), which some clients apply by rejecting tools.
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer } from '../../mcp/server.ts';
import { portabilityFindings } from '../support/schemaPortability.ts';
import { toolNames } from '../support/mcp.ts';

async function listedTools(): Promise<Tool[]> {
  const server = createMcpServer(() => Promise.reject(new Error('not called')), {
    context: () => Promise.reject(new Error('not called')),
    fallback: () => ({ language: 'en', requestId: 'listing' }),
  });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'sps-test', version: '1.0.0' });
  await client.connect(clientSide);
  const { tools } = await client.listTools();
  await client.close();
  return tools;
}

type Schema = { [keyword: string]: unknown };

/** `tool.path` of every property, nested ones (a target's fields) included, that has no description. */
function undescribed(schema: Schema, path: string): string[] {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
  const nested = [schema.items, ...((schema.anyOf ?? []) as unknown[])].filter((sub): sub is Schema => typeof sub === 'object' && sub !== null);
  return [
    ...properties.flatMap(([name, property]) => [
      ...(typeof property.description === 'string' && property.description ? [] : [`${path}.${name}`]),
      ...undescribed(property, `${path}.${name}`),
    ]),
    ...nested.flatMap((sub) => undescribed(sub, path)),
  ];
}

describe('MCP tool schemas', () => {
  it('describe every input property of every tool', async () => {
    const tools = await listedTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...toolNames].sort());
    expect(tools.flatMap((tool) => undescribed(tool.inputSchema, tool.name))).toEqual([]);
  });

  it('pass the Inspector’s portability checks, input and output', async () => {
    const findings = (await listedTools()).flatMap((tool) => [
      ...portabilityFindings(tool.inputSchema, `${tool.name}.inputSchema`),
      ...portabilityFindings(tool.outputSchema, `${tool.name}.outputSchema`),
    ]);
    expect(findings).toEqual([]);
  });

  it('the portability checks find what the Inspector reports', () => {
    const schema = {
      type: 'object',
      properties: { nullable: { type: ['string', 'null'] }, anything: {}, remote: { $ref: 'https://example.com/s.json' }, forbidden: false },
      additionalProperties: true,
    };
    expect(portabilityFindings(schema, 's')).toEqual([
      { rule: 'type-union', path: 's.properties.nullable' },
      { rule: 'untyped-schema', path: 's.properties.anything' },
      { rule: 'remote-ref', path: 's.properties.remote' },
      { rule: 'boolean-schema', path: 's.properties.forbidden' },
    ]);
  });
});

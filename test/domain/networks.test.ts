// One list says what the networks are (src/providers/networks.ts); the published contracts and the settings follow it.
// The OpenAPI document and the GraphQL schema take the list's names as they load (a hand-written list in
// rest/openapi.yaml, which would fall behind, fails here), as the operator's settings and their documentation do.
import { existsSync, readFileSync } from 'node:fs';
import { buildSchema, GraphQLEnumType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { aiProviderNames, loadConfig } from '../../src/config.ts';
import { providerNames, providerRules } from '../../src/providers/catalog.ts';
import { networks } from '../../src/providers/networks.ts';
import { parse } from 'yaml';
import { openapiDocument } from '../../rest/openapiDocument.ts';
import { printGraphSchema } from '../../schema/index.ts';

const sorted = (values: readonly unknown[]) => [...values].map(String).sort();

/** Every `enum` in the document, with where it stands. */
function enumsOf(node: unknown, path: string): { path: string; values: unknown[] }[] {
  if (!node || typeof node !== 'object') return [];
  const here = !Array.isArray(node) && Array.isArray((node as { enum?: unknown }).enum) ? [{ path, values: (node as { enum: unknown[] }).enum }] : [];
  return [...here, ...Object.entries(node).flatMap(([key, child]) => enumsOf(child, `${path}/${key}`))];
}

describe('the list of networks', () => {
  it('gives each network one name, its rules under that name', () => {
    expect(new Set(providerNames).size).toBe(networks.length);
    for (const network of networks) expect(network.rules.provider).toBe(network.name);
  });

  it("is the OpenAPI document's Provider enum, the only list of networks in it; rest/openapi.yaml names none by hand", () => {
    // An enum naming any network that is not also an AI provider (`sandbox` is both) is a list of networks.
    const networkOnly = providerNames.filter((name) => !(aiProviderNames as readonly string[]).includes(name));
    const networkEnums = (document: unknown) => enumsOf(document, '#').filter(({ values }) => values.some((value) => networkOnly.includes(value as string)));
    expect(networkEnums(openapiDocument)).toEqual([{ path: '#/components/schemas/Provider', values: providerNames }]);
    const written = parse(readFileSync(new URL('../../rest/openapi.yaml', import.meta.url), 'utf8'));
    expect(networkEnums(written)).toEqual([]);
  });

  it("names in the OpenAPI document's Placement enum every placement its networks offer, and no other", () => {
    const placements = providerRules.flatMap((rules) => rules.placements.map((placement) => placement.name));
    const schema = openapiDocument.components!.schemas!.Placement as { enum: string[] };
    expect(sorted(schema.enum)).toEqual(sorted([...new Set(placements)]));
  });

  it("is what the graph's Provider enum lists", () => {
    const provider = buildSchema(printGraphSchema()).getType('Provider');
    expect(provider).toBeInstanceOf(GraphQLEnumType);
    const values = (provider as GraphQLEnumType).getValues().map((value) => value.name);
    expect(sorted(values)).toEqual(sorted(providerNames.map((name) => name.toUpperCase())));
  });

  it("names the operator's app settings of each OAuth network with fixed endpoints, with their defaults", () => {
    const withApps = networks.filter((network) => network.app);
    expect(Object.keys(loadConfig({}).networks)).toEqual(withApps.map((network) => network.name));
    const env = Object.fromEntries(
      withApps.flatMap(({ app }) => [
        [`${app!.settingsPrefix}_CLIENT_ID`, `${app!.settingsPrefix}-id`],
        [`${app!.settingsPrefix}_API_BASE_URL`, `https://api.${app!.settingsPrefix}.test/`],
      ]),
    );
    const configured = loadConfig(env).networks;
    for (const { name, app } of withApps) {
      expect(loadConfig({}).networks[name]).toEqual({
        clientId: undefined,
        clientSecret: undefined,
        apiBaseUrl: app!.apiBaseUrl,
        authBaseUrl: app!.authBaseUrl,
        ...(app!.tokenBaseUrl ? { tokenBaseUrl: app!.tokenBaseUrl } : {}),
        ...(app!.uploadBaseUrl ? { uploadBaseUrl: app!.uploadBaseUrl } : {}),
      });
      expect(configured[name]).toMatchObject({ clientId: `${app!.settingsPrefix}-id`, apiBaseUrl: `https://api.${app!.settingsPrefix}.test` });
    }
  });

  it("names the operator's app settings of each OAuth network with fixed endpoints on its docs page", () => {
    for (const { name, app } of networks.filter((network) => network.app)) {
      const page = readFileSync(new URL(`../../docs/networks/${name}.md`, import.meta.url), 'utf8');
      expect(page, name).toContain(`${app!.settingsPrefix}_CLIENT_ID`);
      expect(page, name).toContain(`${app!.settingsPrefix}_CLIENT_SECRET`);
    }
  });

  it("is what the credential body of POST /social-accounts lists: each credential network's fields, their lengths and forms as checked", () => {
    const operation = openapiDocument.paths!['/social-accounts']!.post!;
    const body = (operation.requestBody as any).content['application/json'].schema.properties.credentials;
    const fields = networks.flatMap((network) => (network.connection.method === 'credentials' ? network.connection.fields : []));
    expect(sorted(Object.keys(body.properties))).toEqual(sorted(fields.map((field) => field.name)));
    for (const field of fields)
      expect(body.properties[field.name], field.name).toMatchObject({
        type: 'string',
        maxLength: field.maxLength,
        ...(field.pattern ? { pattern: field.pattern } : {}),
        ...(field.secret ? { format: 'password' } : {}),
      });
  });

  it('has a page in docs/networks for each network, and its index names every page', () => {
    const index = readFileSync(new URL('../../docs/networks/README.md', import.meta.url), 'utf8');
    const linked = [...index.matchAll(/\]\(([a-z_]+)\.md\)/g)].map((match) => match[1]);
    expect(sorted(linked)).toEqual(sorted(providerNames));
    for (const name of providerNames) expect(existsSync(new URL(`../../docs/networks/${name}.md`, import.meta.url)), name).toBe(true);
  });

  it('names <NETWORK>_API_BASE_URL of each network at fixed hosts without an app, with its default', () => {
    const withBase = networks.filter((network) => network.apiBaseUrl);
    expect(withBase.map((network) => network.name)).toContain('telegram');
    expect(loadConfig({}).apiBaseUrls).toEqual(Object.fromEntries(withBase.map((network) => [network.name, network.apiBaseUrl])));
    expect(loadConfig({ TELEGRAM_API_BASE_URL: 'http://127.0.0.1:8081/' }).apiBaseUrls.telegram).toBe('http://127.0.0.1:8081');
  });
});

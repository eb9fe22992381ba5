// The input limits the OpenAPI document states are the domain's (src/limits.ts): they cannot drift apart, so REST's
// schema validation and the domain's own check (which GraphQL and MCP get) refuse the same inputs.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { openapiYaml } from '../../rest/openapiDocument.ts';
import { inputLimits } from '../../src/limits.ts';

type Schema = { $ref?: string; properties?: Record<string, Schema>; items?: Schema; oneOf?: Schema[]; [keyword: string]: unknown };

const document = parse(openapiYaml) as {
  paths: Record<string, Record<string, { operationId?: string; requestBody?: { content: Record<string, { schema: Schema }> } }>>;
  components: { schemas: Record<string, Schema> };
};

function resolve(schema: Schema): Schema {
  return schema.$ref ? resolve(document.components.schemas[schema.$ref.split('/').at(-1)!]!) : schema;
}

function requestSchema(operationId: string): Schema {
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations)) {
      if (operation.operationId === operationId) return resolve(operation.requestBody!.content['application/json']!.schema);
    }
  }
  throw new Error(`no operation ${operationId}`);
}

/** The schema at a path such as `targets[].override.caption` (`[]` steps into items; a oneOf's object branch). */
function schemaAt(root: Schema, path: string): Schema {
  return path.split('.').reduce((schema, segment) => {
    const [name, items] = segment.endsWith('[]') ? [segment.slice(0, -2), true] : [segment, false];
    let object = resolve(schema);
    if (object.oneOf) object = resolve(object.oneOf.find((branch) => resolve(branch).properties)!);
    const property = resolve(object.properties![name]!);
    return items ? resolve(property.items!) : property;
  }, root);
}

const cases: [operationId: string, path: string, keyword: string, limit: number][] = [
  ...(['createPost', 'updatePost'] as const).flatMap((operationId): [string, string, string, number][] => [
    [operationId, 'content.caption', 'maxLength', inputLimits.post.caption],
    [operationId, 'content.mediaIds', 'maxItems', inputLimits.post.mediaIds],
    [operationId, 'targets', 'maxItems', inputLimits.post.targets],
    [operationId, 'targets', 'minItems', 1],
    [operationId, 'targets[].override.caption', 'maxLength', inputLimits.post.caption],
    [operationId, 'campaign', 'maxLength', inputLimits.post.campaign],
  ]),
  ...(['createWebhook', 'updateWebhook'] as const).flatMap((operationId): [string, string, string, number][] => [
    [operationId, 'url', 'maxLength', inputLimits.webhook.url],
    [operationId, 'events', 'maxItems', inputLimits.webhook.events],
    [operationId, 'description', 'maxLength', inputLimits.webhook.description],
  ]),
  ...(['createQueue', 'updateQueue'] as const).flatMap((operationId): [string, string, string, number][] => [
    [operationId, 'name', 'maxLength', inputLimits.queue.name],
    [operationId, 'timezone', 'maxLength', inputLimits.queue.timezone],
    [operationId, 'slots', 'maxItems', inputLimits.queue.slots],
    [operationId, 'slots', 'minItems', 1],
    [operationId, 'connectionIds', 'maxItems', inputLimits.queue.connectionIds],
  ]),
  ['setAltText', 'altText', 'maxLength', inputLimits.media.altText],
];

describe('the OpenAPI document states the domain’s input limits', () => {
  it.each(cases)('%s %s %s = %i', (operationId, path, keyword, limit) => {
    expect(schemaAt(requestSchema(operationId), path)[keyword]).toBe(limit);
  });

  it.each(['createPost', 'updatePost'])("%s takes a placement from an enum, each name within the domain's limit", (operationId) => {
    const placement = schemaAt(requestSchema(operationId), 'targets[].placement') as { enum?: string[] };
    expect(placement.enum?.length).toBeGreaterThan(0);
    for (const name of placement.enum!) expect(name.length).toBeLessThanOrEqual(inputLimits.post.placement);
  });
});

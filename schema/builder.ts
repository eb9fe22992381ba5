// The Pothos builder of the domain graph: Prisma-backed object types, Relay connections, and scope-auth
// wired to the domain's own `authorize`, so the graph enforces exactly the rules REST does.
import SchemaBuilder from '@pothos/core';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import type PrismaTypes from '../src/db/generated/pothos-types.ts';
import { getDatamodel } from '../src/db/generated/pothos-types.ts';
import { authorize, type Operation } from '../src/access/operations.ts';
import type { Actor } from '../src/access/actor.ts';
import type { Language } from '../src/errors/messages.ts';
import type { Services } from '../src/runtime.ts';

export interface GraphContext {
  services: Services;
  actor: Actor;
  language: Language;
  requestId: string;
}

export const builder = new SchemaBuilder<{
  Context: GraphContext;
  PrismaTypes: PrismaTypes;
  AuthScopes: { operation: Operation };
  Scalars: { DateTime: { Input: Date; Output: Date | string } };
  DefaultFieldNullability: false;
}>({
  plugins: [RelayPlugin, ScopeAuthPlugin, PrismaPlugin],
  defaultFieldNullability: false,
  relay: { clientMutationId: 'omit', cursorType: 'String' },
  scopeAuth: {
    // Refusals are thrown by `authorize` itself (403 FORBIDDEN naming the scope and the operation).
    authScopes: (context) => ({
      operation: (operation) => {
        authorize(context.actor, operation);
        return true;
      },
    }),
  },
  prisma: {
    client: (context) => context.services.db.prisma,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    onUnusedQuery: process.env.NODE_ENV === 'test' ? 'error' : null,
  },
});

builder.scalarType('DateTime', {
  description: 'ISO 8601 UTC timestamp with milliseconds.',
  serialize: (value) => (value instanceof Date ? value.toISOString() : value),
  parseValue: (value) => {
    const date = new Date(String(value));
    if (Number.isNaN(date.getTime())) throw new TypeError('DateTime must be an ISO 8601 timestamp');
    return date;
  },
});

builder.queryType({});
builder.mutationType({});

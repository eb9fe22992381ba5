// The Pothos builder of the domain graph: Prisma-backed object types, Relay connections, and scope-auth
// wired to the domain's own `authorize`, so the graph enforces exactly the rules REST does.
import SchemaBuilder from '@pothos/core';
import { GraphQLError, valueFromASTUntyped } from 'graphql';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import type PrismaTypes from '../src/db/generated/pothos-types.ts';
import { getDatamodel } from '../src/db/generated/pothos-types.ts';
import { authorize, type Operation } from '../src/access/operations.ts';
import type { Actor } from '../src/access/actor.ts';
import type { Language } from '../src/errors/messages.ts';
import type { Services } from '../src/runtime.ts';
import { isStorableInstant } from '../src/time.ts';

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
  Scalars: { DateTime: { Input: Date; Output: Date | string }; JSON: { Input: unknown; Output: unknown } };
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

const isoTimestamp = /^(\d{4})-(\d{2})-(\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** An ISO 8601 timestamp naming a real day (no 30 February) that PostgreSQL can store; else null. */
function parseTimestamp(value: unknown): Date | null {
  const parts = typeof value === 'string' ? isoTimestamp.exec(value) : null;
  if (!parts) return null;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const calendarDay = new Date(Date.UTC(year, month - 1, day));
  if (calendarDay.getUTCMonth() !== month - 1 || calendarDay.getUTCDate() !== day) return null;
  const date = new Date(value as string);
  return Number.isNaN(date.getTime()) || !isStorableInstant(date) ? null : date;
}

builder.scalarType('DateTime', {
  description: 'ISO 8601 UTC timestamp with milliseconds.',
  serialize: (value) => (value instanceof Date ? value.toISOString() : value),
  // A GraphQLError: the request is wrong (400 INVALID_REQUEST), not the service.
  parseValue: (value) => {
    const date = parseTimestamp(value);
    if (!date) {
      throw new GraphQLError('DateTime must be an ISO 8601 timestamp between the years 0001 and 9999, e.g. 2026-12-24T17:30:00.000Z');
    }
    return date;
  },
});

builder.scalarType('JSON', {
  description: 'Any JSON value, as REST carries it (e.g. a target’s `settings`); checked by the domain like the REST body.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (node, variables) => valueFromASTUntyped(node, variables),
});

builder.queryType({});
builder.mutationType({});

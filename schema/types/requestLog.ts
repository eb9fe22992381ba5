import { builder } from '../builder.ts';
import { pageRequest, toConnection } from '../connections.ts';
import { listRequestLog, requestLogPosition } from '../../src/requestLog/requestLog.ts';

const RequestLogEntry = builder.prismaObject('RequestLog', {
  name: 'RequestLogEntry',
  description: 'One recorded call of the workspace.',
  fields: (t) => ({
    id: t.id({ resolve: (row) => row.id.toString() }),
    requestId: t.exposeString('requestId'),
    userId: t.exposeID('userId', { nullable: true }),
    apiKeyId: t.exposeID('apiKeyId', { nullable: true }),
    method: t.exposeString('method'),
    route: t.exposeString('route', { description: 'Route template, e.g. /v1/social-accounts or POST /graphql.' }),
    status: t.exposeInt('status'),
    durationMs: t.exposeFloat('durationMs'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryField('requestLog', (t) =>
  t.connection({
    type: RequestLogEntry,
    description: 'Calls recorded for this workspace, newest first. Owners and admins only.',
    authScopes: { operation: 'requestLog' },
    resolve: async (_root, args, context) => toConnection(await listRequestLog(context.services.db, context.actor, pageRequest(args)), requestLogPosition),
  }),
);

// One handler per operationId of rest/openapi.yaml: input comes validated, output goes out as JSON.
import type { Actor } from '../src/access/actor.ts';
import type { Language } from '../src/errors/messages.ts';
import type { Services } from '../src/runtime.ts';
import { getSocialAccount, listSocialAccounts, presentSocialAccount } from '../src/accounts/socialAccounts.ts';
import { mapPage } from '../src/pagination.ts';
import { listProviders } from '../src/providers/catalog.ts';

export interface OperationInput {
  services: Services;
  actor: Actor;
  query: Record<string, unknown>;
  params: Record<string, string>;
  body: unknown;
  language: Language;
}

export interface OperationResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type OperationHandler = (input: OperationInput) => Promise<OperationResult>;

const ok = (body: unknown): OperationResult => ({ status: 200, body });

function page(query: Record<string, unknown>) {
  return { limit: query.limit as number | undefined, cursor: query.cursor as string | undefined };
}

export const operationHandlers: Record<string, OperationHandler> = {
  listSocialAccounts: async ({ services, actor, query }) => ok(mapPage(await listSocialAccounts(services.db, actor, page(query)), presentSocialAccount)),
  getSocialAccount: async ({ services, actor, params }) =>
    ok({ data: presentSocialAccount(await getSocialAccount(services.db, actor, params.id ?? '')) }),
  listProviders: async ({ actor }) => ok(listProviders(actor)),
};

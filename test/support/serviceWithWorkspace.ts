// The set-up most HTTP tests share: the service in-process, one workspace, and the API as its owner.
import { startTestService, type TestService } from './service.ts';
import { createWorkspace, type TestWorkspace } from './fixtures.ts';
import { apiFor, type Api } from './posts.ts';

export interface ServiceWithWorkspace {
  service: TestService;
  /** The workspace, its owner and the owner's key. */
  acme: TestWorkspace;
  /** REST calls with the owner's key. */
  api: Api;
}

/** Starts the service (with `env`, as startTestService) and sets up a workspace in it; stop it with `service.stop()`. */
export async function serviceWithWorkspace(env: Record<string, string> = {}): Promise<ServiceWithWorkspace> {
  const service = await startTestService(env);
  const acme = await createWorkspace(service.services);
  return { service, acme, api: apiFor(service.url, acme.ownerKey) };
}

// A picture put into the workspace's media library through the graph (uploadMedia, base64), ready when it returns.
import { expect } from 'vitest';
import { bearer } from '../support/fixtures.ts';
import { image } from '../support/mediaFiles.ts';
import type { DashboardSession } from './session.ts';

/** The new file's id. */
export async function libraryImage(session: DashboardSession, filename: string, width = 640, height = 480): Promise<string> {
  const response = await fetch(`${session.service.url}/graphql`, {
    method: 'POST',
    headers: bearer(session.workspace.ownerKey, { 'content-type': 'application/json' }),
    body: JSON.stringify({
      query:
        'mutation Add($base64: String!, $filename: String!) { uploadMedia(base64: $base64, filename: $filename, contentType: "image/png", waitSeconds: 10) { id status } }',
      variables: { base64: (await image('png', width, height)).toString('base64'), filename },
    }),
  });
  const { data } = await response.json();
  expect(data.uploadMedia.status).toBe('READY');
  return data.uploadMedia.id;
}

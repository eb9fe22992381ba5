// The analytics CSV is the API's own (GET /v1/analytics/export), fetched with the dashboard's session: the cookie
// and x-workspace-id, which a plain link cannot send. The file is then handed to the browser to save, under the
// name the API gives it.
import { errorOf } from '../api/auth.ts';
import type { Grouping, Period } from './model.ts';

export async function downloadAnalyticsCsv(workspaceId: string, period: Period, groupBy: Grouping): Promise<void> {
  const response = await fetch(`/v1/analytics/export?${new URLSearchParams({ ...period, groupBy })}`, {
    credentials: 'same-origin',
    headers: { 'x-workspace-id': workspaceId },
  });
  if (!response.ok) throw await errorOf(response);
  const filename = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `analytics-${groupBy}.csv`;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  // The browser has taken the file once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url));
}

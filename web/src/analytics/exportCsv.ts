// The analytics CSV is the API's own (GET /v1/analytics/export), fetched with the dashboard's session: the cookie
// and x-workspace-id, which a plain link cannot send. The file is then handed to the browser to save, under the
// name the API gives it.
import { saveAnswer } from '../api/download.ts';
import type { Grouping, Period } from './model.ts';

export async function downloadAnalyticsCsv(workspaceId: string, period: Period, groupBy: Grouping): Promise<void> {
  const response = await fetch(`/v1/analytics/export?${new URLSearchParams({ ...period, groupBy })}`, {
    credentials: 'same-origin',
    headers: { 'x-workspace-id': workspaceId },
  });
  await saveAnswer(response, `analytics-${groupBy}.csv`);
}

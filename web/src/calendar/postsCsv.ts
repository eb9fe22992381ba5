// The posts CSV through the API's own endpoints (POST /v1/posts/import, GET /v1/posts/export), with the dashboard's
// session: the cookie and x-workspace-id, as the analytics export does. A CSV is a file, not a graph operation.
import { type ApiError, errorOf } from '../api/auth.ts';
import { saveAnswer } from '../api/download.ts';

export interface RowFindings {
  row: number;
  connectionIds: string[];
  findings: { field: string; code: string; message: string }[];
}

export interface ImportCheck {
  valid: boolean;
  rows: RowFindings[];
}

async function sendCsv(workspaceId: string, file: Blob, query: string, idempotencyKey?: string): Promise<unknown> {
  const response = await fetch(`/v1/posts/import${query}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'x-workspace-id': workspaceId, 'content-type': 'text/csv', ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
    body: file,
  });
  if (!response.ok) throw await errorOf(response);
  return ((await response.json()) as { data: unknown }).data;
}

/** The dry run: every row's findings, nothing saved. */
export const checkCsv = (workspaceId: string, file: Blob) => sendCsv(workspaceId, file, '?dryRun=true') as Promise<ImportCheck>;

/** The real run, all or nothing; the key makes a retry of the same import (a dropped answer) create nothing twice. */
export const importCsv = (workspaceId: string, file: Blob, idempotencyKey: string) =>
  sendCsv(workspaceId, file, '', idempotencyKey) as Promise<{ id: string }[]>;

/** A 422's details (`rows[3].caption`) as the dry run's rows, so both show in one table. */
export function rowsOf(error: ApiError): RowFindings[] {
  const byRow = new Map<number, RowFindings>();
  for (const detail of error.details) {
    const match = /^rows\[(\d+)\]\.?(.*)$/.exec(detail.field);
    if (!match) continue;
    const row = Number(match[1]);
    const entry = byRow.get(row) ?? { row, connectionIds: [], findings: [] };
    entry.findings.push({ field: match[2] ?? '', code: detail.code ?? '', message: detail.message });
    byRow.set(row, entry);
  }
  return [...byRow.values()];
}

/** Saves the posts of the period shown (`from` inclusive, `to` exclusive) as the API writes them. */
export async function downloadPostsCsv(workspaceId: string, period: { from: string; to: string }): Promise<void> {
  const response = await fetch(`/v1/posts/export?${new URLSearchParams(period)}`, { credentials: 'same-origin', headers: { 'x-workspace-id': workspaceId } });
  await saveAnswer(response, 'posts.csv');
}

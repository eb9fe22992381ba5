// Results for a period: the metrics of the workspace's published targets, summed per day, network, account or
// post, with totals. The CSV export streams the same rows from a database cursor, in constant memory.
import type pg from 'pg';
import type { Readable } from 'node:stream';
import QueryStream from 'pg-query-stream';
import { stringify } from 'csv-stringify';
import { invalidRequest, type ErrorDetail } from '../errors/appError.ts';
import type { Database } from '../db/database.ts';
import type { Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import { isUuid } from '../ids.ts';
import { postStatuses } from '../posts/states.ts';
import { metricColumns, metricNames, zeroMetrics, type Metrics } from './metrics.ts';

export const groupings = ['day', 'provider', 'account', 'post'] as const;
export type Grouping = (typeof groupings)[number];
const maxDays = 5 * 366;

export interface AnalyticsQuery {
  from: string;
  to: string;
  groupBy?: string;
  status?: string[];
  connectionId?: string;
  provider?: string;
  campaign?: string;
}

interface Checked {
  from: string;
  to: string;
  groupBy: Grouping;
  sql: string;
  values: unknown[];
}

/** What rows are grouped by; turned into the text key once per group, not once per row. */
const groupColumn: Record<Grouping, string> = { day: 'm.day', provider: 'm.provider', account: 'm.connection_id', post: 'm.post_id' };

/** The calendar date a value starts with, if it is a real one (2026-02-31 is not). */
function dayOf(value: string): string | null {
  const day = /^(\d{4})-\d{2}-\d{2}/.exec(value)?.[0];
  if (!day || day < '1000') return null;
  const parsed = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === day ? day : null;
}

const keys = ['target_id', 'day', 'workspace_id', 'post_id', 'connection_id', 'provider'];
/** The networks' figures per target and day, and the visits through the target's short links (src/links) as `clicks`. */
const metricDays = `SELECT ${keys.join(', ')}, ${metricNames.map((name) => metricColumns[name]).join(', ')} FROM target_metric_day
  UNION ALL SELECT ${keys.join(', ')}, ${metricNames.map((name) => (name === 'clicks' ? 'clicks' : `0 AS ${metricColumns[name]}`)).join(', ')} FROM link_click_day`;

/** Validates the query and builds the one SQL statement both the JSON answer and the CSV export run. */
function plan(actor: Actor, query: AnalyticsQuery, operation: 'getAnalytics' | 'exportAnalytics'): Checked {
  authorize(actor, operation);
  const details: ErrorDetail[] = [];
  const from = dayOf(query.from);
  const to = dayOf(query.to);
  if (!from) details.push({ field: 'from', code: 'format', messageKey: 'detail.format', params: { format: 'date (YYYY-MM-DD)' } });
  if (!to) details.push({ field: 'to', code: 'format', messageKey: 'detail.format', params: { format: 'date (YYYY-MM-DD)' } });
  if (from && to && (to < from || (Date.parse(to) - Date.parse(from)) / 86_400_000 > maxDays)) {
    details.push({ field: 'to', code: 'range', messageKey: 'detail.analyticsRange', params: { max: maxDays } });
  }
  const groupBy = (query.groupBy ?? 'day') as Grouping;
  if (!groupings.includes(groupBy)) details.push({ field: 'groupBy', code: 'enum', messageKey: 'detail.enum', params: { allowed: groupings.join(', ') } });
  const statuses = query.status ?? [];
  if (statuses.some((status) => !(postStatuses as readonly string[]).includes(status))) {
    details.push({ field: 'status', code: 'enum', messageKey: 'detail.enum', params: { allowed: postStatuses.join(', ') } });
  }
  if (query.connectionId !== undefined && !isUuid(query.connectionId))
    details.push({ field: 'connectionId', code: 'format', messageKey: 'detail.format', params: { format: 'uuid' } });
  if (details.length) throw invalidRequest(details);

  const values: unknown[] = [actor.workspaceId, from, to];
  const where = ['m.workspace_id = $1', 'm.day BETWEEN $2::date AND $3::date'];
  const byPost = statuses.length > 0 || query.campaign !== undefined;
  if (query.connectionId) where.push(`m.connection_id = $${values.push(query.connectionId)}::uuid`);
  if (query.provider) where.push(`m.provider = $${values.push(query.provider)}`);
  if (statuses.length) where.push(`p.status = ANY($${values.push(statuses)}::text[])`);
  if (query.campaign !== undefined) where.push(`p.campaign = $${values.push(query.campaign)}`);
  const column = groupColumn[groupBy];
  const sql = `SELECT ${column}::text AS key, ${metricNames.map((name) => `sum(m.${metricColumns[name]})::float8 AS "${name}"`).join(', ')}
    FROM (${metricDays}) m ${byPost ? 'JOIN post p ON p.id = m.post_id' : ''}
    WHERE ${where.join(' AND ')} GROUP BY ${column} ORDER BY ${column}`;
  return { from: from!, to: to!, groupBy, sql, values };
}

type Row = { key: string } & Metrics;

export async function analytics(db: Database, actor: Actor, query: AnalyticsQuery) {
  const checked = plan(actor, query, 'getAnalytics');
  const { rows } = await db.pool.query<Row>(checked.sql, checked.values);
  const totals = zeroMetrics();
  const grouped = rows.map(({ key, ...metrics }) => {
    for (const name of metricNames) totals[name] += metrics[name];
    return { key, metrics: metrics as Metrics };
  });
  return { from: checked.from, to: checked.to, groupBy: checked.groupBy, totals, rows: grouped };
}

/** The same rows as CSV (a header row first), streamed from a cursor; `release` must be called when done. */
export async function analyticsCsv(db: Database, actor: Actor, query: AnalyticsQuery): Promise<{ filename: string; csv: Readable; release: () => void }> {
  const checked = plan(actor, query, 'exportAnalytics');
  const client: pg.PoolClient = await db.pool.connect();
  const rows = client.query(new QueryStream(checked.sql, checked.values, { batchSize: 1000 }));
  const csv = stringify({ header: true, columns: [{ key: 'key', header: checked.groupBy }, ...metricNames.map((name) => ({ key: name, header: name }))] });
  rows.on('error', (error) => csv.destroy(error));
  rows.pipe(csv);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    rows.destroy();
    client.release();
  };
  return { filename: `analytics-${checked.groupBy}-${checked.from}-${checked.to}.csv`, csv, release };
}

// POST /posts/import: a month of posts from a spreadsheet. Each row is a post (columns in csvColumns.ts), checked by
// the checks of POST /posts (assessPost, checkPostLimits, checkScheduleTime, the queue's accounts) before anything is
// written. A dry run reports every row's findings. A real run is all or nothing: the rows are checked, their media
// URLs imported through the media import (SSRF guard, size limits) and processed, then every post is created (and
// scheduled or queued) in one transaction; any finding rolls it back, removes the media it imported, and answers
// 422 naming each row and column.
import { isUtf8 } from 'node:buffer';
import { CsvError, parse } from 'csv-parse';
import { Temporal } from 'temporal-polyfill';
import type { Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import type { Database } from '../db/database.ts';
import type { Media, Queue, SocialAccount } from '../db/generated/prisma/client.ts';
import { AppError, invalidRequest, type ErrorDetail } from '../errors/appError.ts';
import { localizeDetail } from '../errors/localize.ts';
import type { Language } from '../errors/messages.ts';
import type { Outbox } from '../events/outbox.ts';
import { isUuid } from '../ids.ts';
import { inputLimits, itemsWithin } from '../limits.ts';
import { deleteMedia } from '../media/library.ts';
import { awaitProcessed, checkMediaUrl, importFromUrl, type ImportDeps } from '../media/imports.ts';
import { rulesForAccount } from '../providers/catalog.ts';
import { outsideQueue, queueLocked } from '../queues/queues.ts';
import { assessPost } from './assessment.ts';
import { columnOf, csvColumns, csvLimits, listSeparator, requiredColumns, rowField, type CsvColumn } from './csvColumns.ts';
import { checkPostLimits, createPostIn, type PostDetail, type TargetInput } from './posts.ts';
import { checkScheduleTime, scheduleLocked } from './publishing.ts';
import { assertMayPublish } from './review.ts';
import { violationDetails } from './validation.ts';

export type CsvImportDeps = ImportDeps & { outbox: Outbox };

/** How long a real run waits for its imported files to be processed (they are all processed at once). */
const mediaWaitMs = 60_000;
/** Media URLs fetched at once. */
const mediaFetches = 4;
/**
 * The one transaction of a real run: a thousand posts with their targets, jobs and events (about 8,400 statements;
 * 44–108 s on a two-core machine at load average 18–25, see bench/README.md).
 */
const importTransactionMs = 300_000;

interface CsvRow {
  row: number;
  values: Record<CsvColumn, string>;
}

/** A row as the post it would create; `findings` are the details of what is wrong, `field` being the column. */
interface PlannedRow {
  row: number;
  caption: string;
  targets: TargetInput[];
  mediaUrls: string[];
  when: { scheduledAt: Date; timezone: string } | { queueId: string } | null;
  findings: ErrorDetail[];
}

export interface RowFindings {
  row: number;
  connectionIds: string[];
  findings: ErrorDetail[];
}

const bodyDetail = (code: string, messageKey: ErrorDetail['messageKey'], params?: ErrorDetail['params']): ErrorDetail => ({
  field: 'body',
  code,
  messageKey,
  params,
});

/** The header and the rows, read record by record by csv-parse (RFC 4180: quoted commas, quotes and newlines). */
async function readRows(csv: Buffer): Promise<CsvRow[]> {
  if (!isUtf8(csv)) throw invalidRequest([bodyDetail('wellFormed', 'detail.wellFormed')]);
  if (csv.includes(0)) throw invalidRequest([bodyDetail('nulCharacter', 'detail.nulCharacter')]);
  const parser = parse(csv, { bom: true, skip_empty_lines: true });
  let header: CsvColumn[] | null = null;
  const rows: CsvRow[] = [];
  let records = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      records++;
      if (!header) {
        header = headerOf(record);
        continue;
      }
      if (record.every((value) => value.trim() === '')) continue;
      if (rows.length === csvLimits.rows) throw invalidRequest([bodyDetail('maxItems', 'detail.csv.tooManyRows', { limit: csvLimits.rows })]);
      const values = Object.fromEntries(csvColumns.map((column) => [column, ''])) as Record<CsvColumn, string>;
      header.forEach((column, index) => {
        values[column] = record[index] ?? '';
      });
      rows.push({ row: records, values });
    }
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    // The parser reads ahead of this loop: its own count says where it stopped.
    const read = typeof error.records === 'number' ? error.records : records;
    throw invalidRequest([{ field: rowField(read + 1, null), code: 'csvSyntax', messageKey: 'detail.csv.syntax', params: { reason: error.code } }]);
  }
  if (!rows.length) throw invalidRequest([bodyDetail('minItems', 'detail.csv.noRows')]);
  return rows;
}

/** The header's columns, matched without regard to case; unknown, repeated or missing columns are refused. */
function headerOf(record: string[]): CsvColumn[] {
  const byName = new Map(csvColumns.map((column) => [column.toLowerCase(), column]));
  const details: ErrorDetail[] = [];
  const columns = record.map((name) => {
    const column = byName.get(name.trim().toLowerCase());
    if (!column)
      details.push({
        field: 'header',
        code: 'unknownColumn',
        messageKey: 'detail.csv.unknownColumn',
        params: { column: name, allowed: csvColumns.join(', ') },
      });
    return column!;
  });
  for (const column of new Set(columns.filter((column, index) => column && columns.indexOf(column) !== index))) {
    details.push({ field: 'header', code: 'duplicateColumn', messageKey: 'detail.csv.duplicateColumn', params: { column } });
  }
  for (const column of requiredColumns.filter((required) => !columns.includes(required))) {
    details.push({ field: 'header', code: 'missingColumn', messageKey: 'detail.csv.missingColumn', params: { column } });
  }
  if (details.length) throw invalidRequest(details);
  return columns;
}

const listOf = (value: string) =>
  value
    .split(listSeparator)
    .map((item) => item.trim())
    .filter(Boolean);

/** The workspace's accounts the rows name, by id and by `provider:username` (case-insensitive, `@` optional). */
async function accountsNamed(db: Database, actor: Actor, rows: readonly CsvRow[]) {
  const tokens = new Set(rows.flatMap((row) => listOf(row.values.accounts)));
  const ids = [...tokens].filter(isUuid);
  const providers = [...new Set([...tokens].flatMap((token) => (isUuid(token) || !token.includes(':') ? [] : [token.slice(0, token.indexOf(':'))])))];
  const accounts = await db.prisma.socialAccount.findMany({
    where: { workspaceId: actor.workspaceId, OR: [{ id: { in: ids } }, { provider: { in: providers } }] },
    // A name connected again after a revocation: the connected account wins.
    orderBy: [{ revokedAt: { sort: 'desc', nulls: 'first' } }, { connectedAt: 'desc' }],
  });
  const byToken = new Map<string, SocialAccount>();
  for (const account of accounts.reverse()) {
    byToken.set(account.id, account);
    byToken.set(`${account.provider}:${account.username.replace(/^@/, '').toLowerCase()}`, account);
  }
  return {
    byId: new Map(accounts.map((account) => [account.id, account])),
    accountOf: (token: string) => byToken.get(isUuid(token) ? token : token.replace(/:@/, ':').toLowerCase()) ?? null,
  };
}

/**
 * `scheduledAt` with an offset (`2026-12-05T09:00:00+01:00`, `…Z`) is that instant; without one
 * (`2026-12-05 09:00`) it is that wall-clock time in the row's time zone, as a spreadsheet would mean it.
 */
function instantOf(text: string, timezone: string): Date {
  if (/(Z|[+-]\d{2}:?\d{2})$/i.test(text)) return /^\d{4}-\d{2}-\d{2}T/i.test(text) ? new Date(text) : new Date(Number.NaN);
  try {
    const local = Temporal.PlainDateTime.from(text.replace(' ', 'T'));
    return new Date(local.toZonedDateTime(timezone, { disambiguation: 'compatible' }).epochMilliseconds);
  } catch {
    return new Date(Number.NaN);
  }
}

/** The row as the post it would create, with what is wrong with its own columns. */
function planRow(row: CsvRow, accountOf: (token: string) => SocialAccount | null, queues: ReadonlyMap<string, Queue>): PlannedRow {
  const { values } = row;
  const findings: ErrorDetail[] = [];
  const placement = values.placement.trim();
  const firstComment = values.firstComment.trim();
  const tokens = listOf(values.accounts);
  if (!tokens.length) findings.push({ field: 'accounts', code: 'required', messageKey: 'detail.required' });
  const targets = tokens.flatMap((token): TargetInput[] => {
    const account = accountOf(token);
    if (!account) {
      findings.push({ field: 'accounts', code: 'unknownAccount', messageKey: 'detail.csv.unknownAccount', params: { account: token } });
      return [];
    }
    // Without a placement, the network's first (its plain post: feed, post, tweet…).
    const chosen = placement || rulesForAccount(account)?.placements[0]?.name || '';
    return [{ connectionId: account.id, placement: chosen, ...(firstComment ? { settings: { firstComment } } : {}) }];
  });
  const mediaUrls = listOf(values.mediaUrls);
  findings.push(...itemsWithin('mediaUrls', mediaUrls, inputLimits.post.mediaIds));
  const scheduled = values.scheduledAt.trim();
  const queueId = values.queueId.trim();
  let when: PlannedRow['when'] = null;
  if (scheduled && queueId) {
    findings.push({ field: 'queueId', code: 'scheduleOrQueue', messageKey: 'detail.csv.scheduleOrQueue' });
  } else if (scheduled) {
    const zone = values.timezone.trim() || 'UTC';
    const scheduledAt = instantOf(scheduled, zone);
    const { details, timezone } = checkScheduleTime({ scheduledAt, timezone: zone });
    findings.push(...details);
    when = { scheduledAt, timezone: timezone ?? zone };
  } else if (queueId) {
    const queue = queues.get(queueId);
    if (!queue) findings.push({ field: 'queueId', code: 'unknownQueue', messageKey: 'detail.csv.unknownQueue' });
    else findings.push(...outsideQueue(queue, targets));
    when = { queueId };
  }
  try {
    checkPostLimits({ caption: values.caption }, targets.length ? targets : undefined, undefined);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    findings.push(...(error.details ?? []));
  }
  return { row: row.row, caption: values.caption, targets, mediaUrls, when, findings };
}

/** Media rules cannot be judged before the files are fetched (a real run judges them with the files). */
const judgedWithoutFiles = (code: string) => !code.startsWith('media.') && code !== 'content.empty';

/** Every row's findings: its columns, the checks of POST /posts, and the media URLs' destinations. Writes nothing. */
async function planRows(db: Database, deps: CsvImportDeps, actor: Actor, csv: Buffer): Promise<PlannedRow[]> {
  const rows = await readRows(csv);
  const urls = new Set(rows.flatMap((row) => listOf(row.values.mediaUrls)));
  if (urls.size > csvLimits.mediaUrls) throw invalidRequest([bodyDetail('maxItems', 'detail.csv.tooManyMediaUrls', { limit: csvLimits.mediaUrls })]);
  const { byId, accountOf } = await accountsNamed(db, actor, rows);
  const queueIds = [...new Set(rows.map((row) => row.values.queueId.trim()).filter(isUuid))];
  const queues = new Map(
    (await db.prisma.queue.findMany({ where: { workspaceId: actor.workspaceId, id: { in: queueIds } } })).map((queue) => [queue.id, queue]),
  );
  const refusedUrls = new Map<string, ErrorDetail>();
  await eachAtOnce([...urls], mediaFetches, async (url) => {
    const refusal = await checkMediaUrl(url, deps.settings.allowedHosts);
    if (refusal) refusedUrls.set(url, { ...refusal, field: 'mediaUrls' });
  });
  const planned = rows.map((row) => planRow(row, accountOf, queues));
  for (const row of planned) {
    row.findings.push(...row.mediaUrls.flatMap((url) => refusedUrls.get(url) ?? []));
    if (!row.targets.length) continue;
    const assessment = await assessPost(db.prisma, actor, { caption: row.caption, mediaIds: [], thread: [] }, row.targets, byId);
    const found = [
      ...assessment.targets.flatMap((entry) => entry.problems),
      ...assessment.targets.flatMap((entry, index) => violationDetails(index, entry.violations)),
    ].filter((detail) => !row.mediaUrls.length || judgedWithoutFiles(detail.code));
    row.findings.push(...found);
  }
  return planned;
}

/** Runs `work` on every item, at most `width` at a time. */
async function eachAtOnce<Item>(items: readonly Item[], width: number, work: (item: Item) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
}

/** Findings with their `field` as the column, or '' for the row as a whole (the checks of POST /posts name fields of its body). */
const asColumns = (findings: readonly ErrorDetail[]) =>
  findings.map((finding) => ({
    ...finding,
    field: finding.field === '' || (csvColumns as readonly string[]).includes(finding.field) ? finding.field : columnOf(finding.field),
  }));

function rowsRefused(planned: readonly PlannedRow[]): AppError {
  const details = planned.flatMap((row) =>
    asColumns(row.findings).map((finding) => ({ ...finding, field: rowField(row.row, (finding.field || null) as CsvColumn | null) })),
  );
  const rows = planned.filter((row) => row.findings.length).length;
  return new AppError('VALIDATION_FAILED', 'importRowsInvalid', { rows, count: details.length }, { details });
}

/** The dry run: every row's findings, nothing saved. */
export async function checkImport(deps: CsvImportDeps, actor: Actor, csv: Buffer): Promise<{ valid: boolean; rows: RowFindings[] }> {
  authorize(actor, 'importPosts');
  const planned = await planRows(deps.db, deps, actor, csv);
  const rows = planned.map((row) => ({ row: row.row, connectionIds: row.targets.map((target) => target.connectionId), findings: asColumns(row.findings) }));
  return { valid: rows.every((row) => !row.findings.length), rows };
}

export function presentImportCheck(check: { valid: boolean; rows: RowFindings[] }, language: Language) {
  return { valid: check.valid, rows: check.rows.map((row) => ({ ...row, findings: row.findings.map((finding) => localizeDetail(finding, language)) })) };
}

/** The real run: every post created, scheduled or queued as its row says, or nothing (422 naming row and column). */
export async function importPosts(deps: CsvImportDeps, actor: Actor, csv: Buffer): Promise<PostDetail[]> {
  authorize(actor, 'importPosts');
  const planned = await planRows(deps.db, deps, actor, csv);
  if (planned.some((row) => row.findings.length)) throw rowsRefused(planned);
  const imported = new Map<string, Media>();
  try {
    await importMedia(deps, actor, planned, imported);
    if (planned.some((row) => row.findings.length)) throw rowsRefused(planned);
    return await deps.db.prisma.$transaction(
      async (tx) => {
        const posts: PostDetail[] = [];
        for (const row of planned) {
          try {
            const mediaIds = row.mediaUrls.map((url) => imported.get(url)!.id);
            const post = await createPostIn(tx, actor, { content: { caption: row.caption, mediaIds }, targets: row.targets });
            const { when } = row;
            // An editor's scheduled or queued row needs review first where the workspace requires it, as POST /posts/{id}/schedule does.
            if (when) await assertMayPublish(tx, actor, post, 'queueId' in when ? 'queue' : 'schedule');
            if (when && 'queueId' in when) posts.push(await queueLocked(tx, deps.boss, deps.outbox, actor, post, when.queueId));
            else if (when) posts.push(await scheduleLocked(tx, deps.boss, deps.outbox, actor, post, { ...when, queueId: null }));
            else posts.push(post);
          } catch (error) {
            if (!(error instanceof AppError) || error.httpStatus >= 500) throw error;
            const onRow = { field: row.when && 'queueId' in row.when ? 'queueId' : '', code: error.code, messageKey: error.messageKey, params: error.params };
            row.findings.push(...(error.details ?? [onRow]));
          }
        }
        // Any refused row rolls every post back.
        if (planned.some((row) => row.findings.length)) throw rowsRefused(planned);
        return posts;
      },
      { timeout: importTransactionMs },
    );
  } catch (error) {
    await Promise.allSettled([...imported.values()].map((media) => deleteMedia(deps.db, deps.storage, actor, media.id)));
    throw error;
  }
}

/** Each different URL once: fetched, stored and processed; a file that fails is a finding of every row naming it. */
async function importMedia(deps: CsvImportDeps, actor: Actor, planned: PlannedRow[], imported: Map<string, Media>): Promise<void> {
  const urls = [...new Set(planned.flatMap((row) => row.mediaUrls))];
  const refusals = new Map<string, ErrorDetail[]>();
  await eachAtOnce(urls, mediaFetches, async (url) => {
    try {
      imported.set(url, await importFromUrl(deps, actor, { url }));
    } catch (error) {
      if (!(error instanceof AppError) || !error.details) throw error;
      refusals.set(url, error.details);
    }
  });
  await Promise.all(
    [...imported].map(async ([url, media]) => {
      const processed = await awaitProcessed(deps.db, actor, media.id, mediaWaitMs);
      if (processed.status !== 'ready') {
        refusals.set(url, [{ field: 'mediaUrls', code: 'mediaNotReady', messageKey: 'detail.mediaNotReady', params: { status: processed.status } }]);
      }
    }),
  );
  for (const row of planned) {
    row.findings.push(...row.mediaUrls.flatMap((url) => (refusals.get(url) ?? []).map((detail) => ({ ...detail, field: 'mediaUrls' }))));
  }
}

// POST /v1/posts/import and GET /v1/posts/export: a spreadsheet of posts in, the same columns out. Every row is
// checked as POST /posts checks a post; a dry run answers per row; a real run saves all rows or nothing, its 422
// naming row and column; media URLs go through the media import's SSRF guard.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { bearer, connectSandbox, type TestWorkspace } from '../support/fixtures.ts';
import { image } from '../support/mediaFiles.ts';
import { fileServer } from '../support/mcp.ts';
import type { Api } from '../support/posts.ts';

let service: TestService;
let acme: TestWorkspace;
let api: Api;
let feed: string;
let files: Awaited<ReturnType<typeof fileServer>>;
const username = `team${Date.now()}`;
const dataDir = mkdtempSync(join(tmpdir(), 'sps-csv-'));
const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

beforeAll(async () => {
  files = await fileServer({ '/photo.jpg': { type: 'image/jpeg', body: await image('jpeg', 80, 60) } });
  // The file server is on 127.0.0.1, which the operator allows here as WEBHOOK_ALLOWED_HOSTS does for a real one.
  ({ service, acme, api } = await serviceWithWorkspace({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', DATA_DIR: dataDir }));
  feed = await connectSandbox(service.services, acme.workspaceId, username);
});
afterAll(async () => {
  await service.stop();
  await files.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function importCsv(csv: string | Buffer, options: { dryRun?: boolean; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${service.url}/v1/posts/import${options.dryRun ? '?dryRun=true' : ''}`, {
    method: 'POST',
    headers: bearer(acme.ownerKey, { 'content-type': 'text/csv', ...options.headers }),
    body: typeof csv === 'string' ? csv : new Uint8Array(csv),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** Every row an import could write: posts, targets, media files, outbox events. */
async function rowsWritten(): Promise<number[]> {
  const { prisma } = service.services.db;
  return Promise.all([prisma.post.count(), prisma.postTarget.count(), prisma.media.count(), prisma.outboxEvent.count()]);
}

describe('POST /posts/import', () => {
  it('creates a draft, a scheduled and a queued post from rows naming accounts by id or provider:username', async () => {
    const queue = (await api('POST', '/queues', { name: 'CSV', timezone: 'Europe/Berlin', slots: [{ day: 'monday', time: '09:00' }] })).body.data;
    const at = future(3);
    const csv = [
      'caption,accounts,placement,scheduledAt,timezone,queueId',
      `Just a draft,${feed},,,,`,
      `On time,sandbox:${username.toUpperCase()},feed,${at},Europe/Paris,`,
      `In the queue,sandbox:@${username},,,,${queue.id}`,
    ].join('\r\n');
    const { status, body } = await importCsv(csv);
    expect(status).toBe(201);
    expect(body.data).toHaveLength(3);
    expect(body.data[0]).toMatchObject({ status: 'draft', content: { caption: 'Just a draft' }, targets: [{ connectionId: feed, placement: 'feed' }] });
    expect(body.data[1]).toMatchObject({ status: 'scheduled', scheduledAt: at, timezone: 'Europe/Paris', targets: [{ connectionId: feed }] });
    expect(body.data[2]).toMatchObject({ status: 'scheduled', queueId: queue.id, timezone: 'Europe/Berlin' });
  });

  it('reads a time without an offset as the wall-clock time of the row’s time zone', async () => {
    const year = new Date().getUTCFullYear() + 1;
    const { status, body } = await importCsv(`caption,accounts,scheduledAt,timezone\nSummer,${feed},${year}-07-01 09:30,Europe/Berlin\n`);
    expect(status).toBe(201);
    expect(body.data[0].scheduledAt).toBe(`${year}-07-01T07:30:00.000Z`);
  });

  it('reads UTF-8 with a byte order mark, and quoted fields holding commas, quotes and line breaks', async () => {
    const caption = 'Line one, with a comma\nLine two: "quoted" — ünïcödé ✨';
    const csv = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`caption,accounts\r\n"${caption.replaceAll('"', '""')}",${feed}\r\n`)]);
    const { status, body } = await importCsv(csv);
    expect(status).toBe(201);
    expect(body.data.map((post: { content: { caption: string } }) => post.content.caption)).toEqual([caption]);
  });

  it('answers a dry run with each row’s findings, by column, and saves nothing', async () => {
    const before = await rowsWritten();
    const csv = [
      'Caption,Accounts,placement,scheduledAt,firstComment',
      `Fine,${feed},,,`,
      `${'x'.repeat(501)},sandbox:nobody-here|${feed},,2020-01-01T00:00:00Z,`,
      `Wrong place,${feed},carousel,,`,
      `Comment,${feed},,,Sandbox takes no first comment`,
    ].join('\n');
    const { status, body } = await importCsv(csv, { dryRun: true });
    expect(status).toBe(200);
    expect(body.data.valid).toBe(false);
    const byRow = Object.fromEntries(body.data.rows.map((row: { row: number; findings: { field: string; code: string }[] }) => [row.row, row.findings]));
    expect(byRow[2]).toEqual([]);
    expect(byRow[3]).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'accounts', code: 'unknownAccount', message: expect.stringContaining('sandbox:nobody-here') }),
        expect.objectContaining({ field: 'scheduledAt', code: 'past' }),
        expect.objectContaining({ field: 'caption', code: 'caption.maxLength' }),
      ]),
    );
    expect(byRow[4]).toEqual([expect.objectContaining({ field: 'placement', code: 'placement' })]);
    expect(byRow[5]).toEqual([expect.objectContaining({ field: 'firstComment' })]);
    expect(body.data.rows[0]).toMatchObject({ row: 2, connectionIds: [feed] });
    expect(await rowsWritten()).toEqual(before);
  });

  it('refuses the whole file when one row is bad: 422 naming row and column, nothing saved', async () => {
    const before = await rowsWritten();
    const csv = [
      `caption,accounts,scheduledAt,timezone,queueId`,
      `Good one,${feed},,,`,
      `Also good,${feed},${future(1)},Mars/Base,`,
      `Good again,${feed},,,`,
    ].join('\n');
    const { status, body } = await importCsv(csv);
    expect(status).toBe(422);
    expect(body.error.code).toBe('VALIDATION_FAILED');
    expect(body.error.details).toEqual([expect.objectContaining({ field: 'rows[3].timezone', code: 'unknownTimezone' })]);
    expect(body.error.message).toContain('Nothing was imported');
    expect(await rowsWritten()).toEqual(before);
    const german = await importCsv(csv, { headers: { 'accept-language': 'de' } });
    expect(german.body.error.message).toContain('Nichts wurde importiert');
  });

  it('imports media URLs before the posts, and removes them again when a row is refused once its files are known', async () => {
    const url = `${files.url}/photo.jpg`;
    const ok = await importCsv(`caption,accounts,mediaUrls\nWith a photo,${feed},${url}\nSame photo,${feed},${url}\n`);
    expect(ok.status).toBe(201);
    expect(ok.body.data[0].media).toEqual([expect.objectContaining({ status: 'ready', type: 'image' })]);
    // One URL, one file: both posts use it.
    expect(ok.body.data[1].content.mediaIds).toEqual(ok.body.data[0].content.mediaIds);

    // A reel takes one video: the dry run cannot judge an unfetched file, the real run can, and then saves nothing.
    const reel = `caption,accounts,placement,mediaUrls\nFine,${feed},feed,\nA reel of a photo,${feed},reel,${url}\n`;
    expect((await importCsv(reel, { dryRun: true })).body.data.valid).toBe(true);
    // (Its outbox keeps the media.ready event of the file that existed for a moment: only the rows are compared.)
    const before = (await rowsWritten()).slice(0, 3);
    const refused = await importCsv(reel);
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'rows[3].mediaUrls', code: 'media.kind' })]));
    expect((await rowsWritten()).slice(0, 3)).toEqual(before);
  });

  it('refuses media URLs the SSRF guard refuses, without fetching them', async () => {
    const before = await rowsWritten();
    const csv = `caption,accounts,mediaUrls\nMetadata,${feed},https://169.254.169.254/latest/meta-data\nPlain http,${feed},http://example.com/a.jpg\n`;
    const check = await importCsv(csv, { dryRun: true });
    expect(check.body.data.rows.map((row: { findings: unknown[] }) => row.findings)).toEqual([
      [expect.objectContaining({ field: 'mediaUrls', code: 'privateAddress' })],
      [expect.objectContaining({ field: 'mediaUrls', code: 'httpsRequired' })],
    ]);
    const { status, body } = await importCsv(csv);
    expect(status).toBe(422);
    expect(body.error.details.map((detail: { field: string }) => detail.field)).toEqual(['rows[2].mediaUrls', 'rows[3].mediaUrls']);
    expect(await rowsWritten()).toEqual(before);
  });

  it('replays the first answer for the same Idempotency-Key and file, and refuses the key for another file', async () => {
    const key = `csv-${Date.now()}`;
    const csv = `caption,accounts\nOnce only,${feed}\n`;
    const first = await importCsv(csv, { headers: { 'idempotency-key': key } });
    expect(first.status).toBe(201);
    const before = await rowsWritten();
    const again = await importCsv(csv, { headers: { 'idempotency-key': key } });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data[0].id).toBe(first.body.data[0].id);
    expect(await rowsWritten()).toEqual(before);
    const other = await importCsv(`caption,accounts\nSomething else,${feed}\n`, { headers: { 'idempotency-key': key } });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('CONFLICT');
  });

  it('takes at most 1,000 rows, and a body of at most 5 MiB', async () => {
    const rows = (count: number) => ['caption,accounts', ...Array.from({ length: count }, (_, i) => `Post ${i},${feed}`)].join('\n');
    const tooMany = await importCsv(rows(1001), { dryRun: true });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details).toEqual([expect.objectContaining({ field: 'body', code: 'maxItems', message: expect.stringContaining('1,000') })]);
    expect((await importCsv(rows(1000), { dryRun: true })).body.data.rows).toHaveLength(1000);
    const huge = await importCsv(`caption,accounts\n"${'x'.repeat(5 * 1024 * 1024)}",${feed}\n`);
    expect(huge.status).toBe(400);
    expect(huge.body.error.details).toEqual([expect.objectContaining({ field: 'body', code: 'tooLarge' })]);
  });

  it('refuses a file it cannot read with 400 and details: columns, quoting, encoding, content type', async () => {
    const unknown = await importCsv(`caption,accounts,colour\nHi,${feed},blue\n`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toEqual([expect.objectContaining({ field: 'header', code: 'unknownColumn' })]);
    const missing = await importCsv('caption\nHi\n');
    expect(missing.body.error.details).toEqual([
      expect.objectContaining({ field: 'header', code: 'missingColumn', message: expect.stringContaining('accounts') }),
    ]);
    const unclosed = await importCsv(`caption,accounts\nFine,${feed}\n"Never closed,${feed}\n`);
    expect(unclosed.status).toBe(400);
    expect(unclosed.body.error.details).toEqual([expect.objectContaining({ field: 'rows[3]', code: 'csvSyntax' })]);
    const notUtf8 = await importCsv(Buffer.concat([Buffer.from('caption,accounts\n'), Buffer.from([0xff, 0xfe]), Buffer.from(`,${feed}\n`)]));
    expect(notUtf8.body.error.details).toEqual([expect.objectContaining({ field: 'body', code: 'wellFormed' })]);
    const empty = await importCsv('caption,accounts\n');
    expect(empty.body.error.details).toEqual([expect.objectContaining({ field: 'body', code: 'minItems' })]);
    const json = await api('POST', '/posts/import', { caption: 'Hi' });
    expect(json.status).toBe(415);
  });
});

describe('GET /posts/export', () => {
  it('writes the posts of the filter in the import’s columns, which import again as they were', async () => {
    const campaign = `export-${Date.now()}`;
    const at = future(5);
    const created = await api('POST', '/posts', {
      content: { caption: 'Exported, "quoted"\nand two lines' },
      targets: [{ connectionId: feed, placement: 'feed' }],
      campaign,
    });
    await api('POST', `/posts/${created.body.data.id}/schedule`, { scheduledAt: at, timezone: 'Europe/Madrid' });
    await api('POST', '/posts', { content: { caption: 'Other campaign' }, targets: [{ connectionId: feed, placement: 'feed' }], campaign: 'other' });

    const response = await fetch(`${service.url}/v1/posts/export?campaign=${campaign}`, { headers: bearer(acme.ownerKey) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="posts-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = await response.text();
    expect(text.split('\n')[0]).toBe('caption,accounts,placement,scheduledAt,timezone,queueId,mediaUrls,firstComment');
    expect(parse(text, { columns: true })).toEqual([
      {
        caption: 'Exported, "quoted"\nand two lines',
        accounts: `sandbox:${username}`,
        placement: 'feed',
        scheduledAt: at,
        timezone: 'Europe/Madrid',
        queueId: '',
        mediaUrls: '',
        firstComment: '',
      },
    ]);
    const again = await importCsv(text);
    expect(again.status).toBe(201);
    expect(again.body.data[0]).toMatchObject({ status: 'scheduled', scheduledAt: at, content: { caption: 'Exported, "quoted"\nand two lines' } });

    const bad = await fetch(`${service.url}/v1/posts/export?status=lost`, { headers: bearer(acme.ownerKey) });
    expect(bad.status).toBe(400);
  });
});

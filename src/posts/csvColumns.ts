// The columns of the posts CSV (contract: "Bulk posts, feeds and links"), shared by the import and the export, and
// where in a row a finding of the post checks belongs.

export const csvColumns = ['caption', 'accounts', 'placement', 'scheduledAt', 'timezone', 'queueId', 'mediaUrls', 'firstComment'] as const;
export type CsvColumn = (typeof csvColumns)[number];
export const requiredColumns: readonly CsvColumn[] = ['caption', 'accounts'];

/** How lists are written inside one field (`accounts`, `mediaUrls`). */
export const listSeparator = '|';

export const csvLimits = {
  /** Rows after the header. */
  rows: 1000,
  /** The request body: a thousand rows of long captions fit, a runaway export of something else does not. */
  bodyBytes: 5 * 1024 * 1024,
  /** Different media URLs in one import, each fetched and processed before the posts are written. */
  mediaUrls: 500,
} as const;

/**
 * The column a finding of the post checks names: `content.caption` and `targets[1].caption` are the caption,
 * `…mediaIds` the media URLs, `targets[0].settings.firstComment` the first comment. What concerns the account itself
 * (unknown, inactive, twice, settings the CSV cannot give) is the accounts column.
 */
export function columnOf(field: string): CsvColumn {
  const within = field.replace(/^targets(\[\d+\])?\.?/, '').replace(/^content\./, '');
  if (within.startsWith('caption') || within.startsWith('override.caption')) return 'caption';
  if (within.startsWith('mediaIds')) return 'mediaUrls';
  if (within.startsWith('settings.firstComment')) return 'firstComment';
  for (const column of ['placement', 'scheduledAt', 'timezone', 'queueId'] as const) if (within.startsWith(column)) return column;
  return 'accounts';
}

/** `rows[n].column`: n is the row's number in the file, the header being row 1 (as a spreadsheet numbers them). */
export const rowField = (row: number, column: CsvColumn | null) => (column ? `rows[${row}].${column}` : `rows[${row}]`);

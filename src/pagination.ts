// Cursor pagination shared by every list: `limit` 1..100 (default 25), an opaque `cursor`, and
// `{ data, pagination: { nextCursor, hasMore } }` back.
import { invalidRequest } from './errors/appError.ts';
import { isStorableInstant } from './time.ts';

export interface PageRequest {
  limit?: number | undefined;
  cursor?: string | undefined;
}

export interface Page<T> {
  data: T[];
  pagination: { nextCursor: string | null; hasMore: boolean };
}

const invalidCursor = () => invalidRequest([{ field: 'cursor', code: 'invalid', messageKey: 'detail.invalidCursor' }]);

export const defaultPageSize = 25;
export const maxPageSize = 100;

/** A position in a list ordered by (`at`, `id`): the last row of the previous page. */
export interface Position {
  at: string;
  id: string;
}

export function pageSize(request: PageRequest): number {
  const limit = request.limit ?? defaultPageSize;
  if (!Number.isInteger(limit) || limit < 1 || limit > maxPageSize) {
    throw invalidRequest([{ field: 'limit', code: 'maximum', messageKey: 'detail.maximum', params: { limit: maxPageSize } }]);
  }
  return limit;
}

/** The position a cursor stands for; `validId` guards what the id column can hold. */
export function decodeCursor(cursor: string | undefined, validId: (id: string) => boolean): Position | null {
  if (cursor === undefined) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2) {
      const [at, id] = parsed as unknown[];
      // The time goes to SQL as ISO 8601 whatever form it came in, and only when PostgreSQL can hold it.
      const time = typeof at === 'string' ? new Date(at) : null;
      if (time && isStorableInstant(time) && typeof id === 'string' && validId(id)) return { at: time.toISOString(), id };
    }
  } catch {
    // falls through to the error below
  }
  throw invalidCursor();
}

export function encodeCursor(position: Position): string {
  return Buffer.from(JSON.stringify([position.at, position.id])).toString('base64url');
}

/** Builds a page from `limit + 1` rows fetched in list order. */
export function toPage<Row>(rows: Row[], limit: number, positionOf: (row: Row) => Position): Page<Row> {
  const hasMore = rows.length > limit;
  const data = hasMore ? rows.slice(0, limit) : rows;
  const last = data.at(-1);
  return { data, pagination: { nextCursor: hasMore && last ? encodeCursor(positionOf(last)) : null, hasMore } };
}

export function mapPage<Row, Item>(page: Page<Row>, present: (row: Row) => Item): Page<Item> {
  return { data: page.data.map(present), pagination: page.pagination };
}

/** Prisma filter for rows after `position` in newest-first (`field` desc, id desc) order. */
export function newestFirstAfter<Where extends object>(field: string, position: Position | null, toId: (id: string) => unknown = (id) => id): Where {
  if (!position) return {} as Where;
  const at = new Date(position.at);
  return { OR: [{ [field]: { lt: at } }, { [field]: at, id: { lt: toId(position.id) } }] } as Where;
}

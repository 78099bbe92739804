/**
 * The Paged contract: `{ list, count, next }`.
 * - `pageSize` applies to the first page (default and maximum per field); a follow-up query passes
 *   `pageId` (the previous `next`) and keeps the page size the cursor carries unless it gives one.
 * - `next` is null on the last page; `count` is computed only when the client selects it.
 */
import { type Cursor, type CursorCodec } from './cursor';
import { badInput } from './errors';

export interface PageRules {
  defaultSize: number;
  maxSize: number;
}

export interface PageArgs {
  pageSize?: number | null;
  pageId?: string | null;
}

export interface PageRequest {
  size: number;
  /** keyset position to continue after, or null for the first page */
  after: unknown[] | null;
  /**
   * What the page belongs to; a thunk is computed only when needed (a pageId to check, a next
   * page to sign): a nested list of 50 parents mostly needs neither.
   */
  fingerprint: Fingerprint;
}

export type Fingerprint = string | (() => string);
const fingerprintOf = (value: Fingerprint) => (typeof value === 'string' ? value : value());

export interface Page<T> {
  list: T[];
  next: string | null;
  /** A thunk: GraphQL calls it only when `count` is selected. */
  count: (() => Promise<number | null>) | number | null;
}

/**
 * The page a request asks for. A subgraph's paged field has its page size checked and its default
 * filled in from its `@paged` declaration before its resolver runs (subgraph-kit paged-fields.ts),
 * so `args.pageSize` (or the size a follow-up page's cursor carries) is what it gets; `rules`
 * serves callers outside a schema (tools, tests), and a maximum given there is checked.
 */
export function pageRequest(
  codec: CursorCodec,
  args: PageArgs,
  rules: PageRules | undefined,
  fingerprint: Fingerprint,
): PageRequest {
  let cursor: Cursor | null = null;
  if (args.pageId != null && args.pageId !== '') {
    cursor = codec.decode(args.pageId);
    if (cursor.f !== fingerprintOf(fingerprint)) {
      throw badInput(
        'pageId belongs to another query (different field, filters or parent). Repeat the query that returned it, or start again without pageId.',
        { argument: 'pageId' },
      );
    }
  }
  const requested = args.pageSize ?? cursor?.s ?? rules?.defaultSize;
  if (requested === undefined)
    throw new Error('a first page without pageSize: the paged field declares no @paged default');
  const max = rules?.maxSize ?? Number.MAX_SAFE_INTEGER;
  if (!Number.isInteger(requested) || requested < 1 || requested > max) {
    throw badInput(`pageSize must be between 1 and ${max} (got ${String(args.pageSize)}).`, {
      argument: 'pageSize',
      maxPageSize: max,
    });
  }
  return { size: requested, after: cursor?.k ?? null, fingerprint };
}

/**
 * Turns `size + 1` fetched rows into a page: the extra row only says that another page exists.
 */
export function toPage<T>(
  codec: CursorCodec,
  request: PageRequest,
  rows: T[],
  keyOf: (row: T) => unknown[],
  count: Page<T>['count'],
): Page<T> {
  const hasMore = rows.length > request.size;
  const list = hasMore ? rows.slice(0, request.size) : rows;
  const last = list[list.length - 1];
  const next =
    hasMore && last !== undefined
      ? codec.encode({
          k: keyOf(last).map(serializeKey),
          s: request.size,
          f: fingerprintOf(request.fingerprint),
        })
      : null;
  return { list, next, count };
}

function serializeKey(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}

export const emptyPage: Page<never> = { list: [], next: null, count: 0 };

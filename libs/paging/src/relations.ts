/**
 * Nested paged fields (Group.devices, Device.groups, ...) as batched loaders. For all parents
 * asking for the same page (same size and cursor), one SQL statement fetches every parent's page:
 *
 *   select p.parent_id as "__parent", t.* from unnest(<parent ids>) as p(parent_id)
 *   cross join lateral (<child query correlated on p.parent_id, keyset, limit size+1>) t
 *
 * so the number of statements per request depends on the query's shape, never on the page size.
 * The parent ids are an arrayParameter (@fleetgraph/db): one parent or fifty, the statement keeps
 * one generic plan instead of being planned again for each batch smaller than PostgreSQL's guess.
 * `count` is a second batched statement, sent only when a client selects it.
 */
import DataLoader from 'dataloader';
import type { Viewer } from '@fleetgraph/auth';
import type { Knex } from 'knex';
import { arrayParameter, sqlTemplate, type SqlTemplate } from '@fleetgraph/db';
import { fingerprint, type CursorCodec } from './cursor';
import { applyKeyset } from './keyset';
import { pageRequest, toPage, type Page, type PageArgs, type PageRequest, type PageRules } from './page';
import { keyOf, selectColumns, type TableSpec } from './table-spec';

/**
 * A nested list. Make specs module constants: a relation's unfiltered page statements are
 * compiled once per spec object (a spec made per request is compiled per request).
 */
export interface RelationSpec {
  name: string;
  /** SQL type of the parent id (for unnest) */
  parentType: 'uuid' | 'text';
  child: TableSpec;
  /** Page-size rules for callers outside a schema; a paged field has its own (`@paged`). */
  rules?: PageRules;
  /**
   * The child rows of parent `p.parent_id` visible to the viewer (no order, no limit). Unfiltered
   * pages are compiled once per process with a placeholder for `viewer`: bind it as a value, never
   * read it, and depend on nothing else that changes (no clock, no request state; `filter` with
   * no filters likewise).
   */
  children(knex: Knex, viewer: Viewer): Knex.QueryBuilder;
  /**
   * Optional field arguments besides pageSize/pageId (e.g. startedAfter): applied to the child
   * query; they are part of the batch key, of the count and of the cursor fingerprint.
   */
  filter?(query: Knex.QueryBuilder, filters: Record<string, unknown>): void;
  /**
   * Other ways of reading the same children, for the parents one suits better (e.g. walking an
   * index in page order for a parent that sees a large fleet, where `children` would read its
   * whole set). Each parent's page is read by the first way whose `when` holds for it, else by
   * `children`; every way must select the same rows in the same order. The ways are branches of
   * the one statement, each guarded by its condition, evaluated once per parent.
   */
  ways?: readonly RelationWay[];
}

export interface RelationWay {
  /** A condition on `p.parent_id` alone (no child column), bound to nothing that changes. */
  when(knex: Knex): Knex.Raw;
  /** The children, as `RelationSpec.children` (filters applied to it too). */
  children(knex: Knex, viewer: Viewer): Knex.QueryBuilder;
  /**
   * Columns the page orders by before the child's order, constant for a parent (e.g. the
   * organization of an index on (organization, ...order) that the way walks).
   */
  orderFirst?: readonly string[];
}

export interface RelationKey {
  parentId: string;
  args: PageArgs & Record<string, unknown>;
  /**
   * Fields set on every row of the page, e.g. the language its texts are asked in. Part of the
   * batch and cache keys, not of the SQL nor the cursor. A marked batch's rows come from its own
   * statement, so they are marked in place (no copy per row): one page of 50 reports carried its
   * language onto ~1,000 answers by copying each.
   */
  mark?: Readonly<Record<string, unknown>>;
  /** The model fields to select (projectedFields of the child spec); all columns when absent. */
  fields?: readonly string[] | undefined;
}

const markKey = (mark: RelationKey['mark']) => (mark ? JSON.stringify(mark) : '');
const fieldsKey = (fields: RelationKey['fields']) => (fields ? fields.join(',') : '*');

/** The arguments of a key other than paging, without absent values (stable for batching). */
function filtersOf(args: RelationKey['args']): Record<string, unknown> {
  const { pageSize: _size, pageId: _id, ...rest } = args;
  return Object.fromEntries(
    Object.entries(rest)
      .filter(([, v]) => v !== undefined && v !== null)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

export function relationLoader<M>(knex: Knex, codec: CursorCodec, viewer: Viewer, spec: RelationSpec) {
  const childQuery = (filters: Record<string, unknown>) => childrenOf(knex, spec, viewer, filters);
  const counts = new DataLoader<{ parentId: string; filters: Record<string, unknown> }, number, string>(
    async (keys) => {
      const groups = new Map<string, { filters: Record<string, unknown>; parentIds: Set<string> }>();
      for (const key of keys) {
        const groupKey = JSON.stringify(key.filters);
        const group = groups.get(groupKey) ?? { filters: key.filters, parentIds: new Set() };
        group.parentIds.add(key.parentId);
        groups.set(groupKey, group);
      }
      const found = new Map<string, number>();
      for (const [groupKey, { filters, parentIds }] of groups) {
        const inner = childQuery(filters).count('* as n');
        const rows: Array<{ __parent: string; n: number }> = (
          await knex.raw(
            `select p.parent_id as "__parent", c.n from unnest(${arrayParameter(spec.parentType)}) as p(parent_id) cross join lateral (?) c`,
            [[...parentIds], inner],
          )
        ).rows;
        for (const r of rows) found.set(JSON.stringify([String(r.__parent), groupKey]), Number(r.n));
      }
      return keys.map((k) => found.get(JSON.stringify([k.parentId, JSON.stringify(k.filters)])) ?? 0);
    },
    { cacheKeyFn: (k) => JSON.stringify([k.parentId, JSON.stringify(k.filters)]) },
  );

  return new DataLoader<RelationKey, Page<M>, string>(
    async (keys) => {
      const results: Array<Page<M> | Error> = new Array(keys.length);
      const batches = new Map<
        string,
        {
          request: PageRequest;
          filters: Record<string, unknown>;
          mark: RelationKey['mark'];
          fields: RelationKey['fields'];
          indexes: number[];
        }
      >();
      keys.forEach((key, index) => {
        try {
          const filters = filtersOf(key.args);
          const request = pageRequest(codec, key.args, spec.rules, () =>
            fingerprint(spec.name, key.parentId, filters),
          );
          const batchKey = JSON.stringify([
            request.size,
            request.after,
            filters,
            markKey(key.mark),
            fieldsKey(key.fields),
          ]);
          const batch = batches.get(batchKey) ?? {
            request,
            filters,
            mark: key.mark,
            fields: key.fields,
            indexes: [],
          };
          batch.indexes.push(index);
          batches.set(batchKey, batch);
        } catch (error) {
          results[index] = error as Error;
        }
      });
      for (const { request, filters, mark, fields, indexes } of batches.values()) {
        const parentIds = [...new Set(indexes.map((i) => keys[i]!.parentId))];
        const rows = await childRows(knex, viewer, spec, filters, request, parentIds, fields);
        // Rows are used as they come (the extra `__parent` field is never resolved): no copy per row.
        const byParent = new Map<string, M[]>();
        for (const row of rows) {
          if (mark) Object.assign(row, mark);
          const parent = String(row.__parent);
          const list = byParent.get(parent);
          if (list) list.push(row as M);
          else byParent.set(parent, [row as M]);
        }
        for (const index of indexes) {
          const parentId = keys[index]!.parentId;
          const pageRequestForParent = {
            ...request,
            fingerprint: () => fingerprint(spec.name, parentId, filters),
          };
          results[index] = toPage(
            codec,
            pageRequestForParent,
            byParent.get(parentId) ?? [],
            keyOf(spec.child) as (m: M) => unknown[],
            () => counts.load({ parentId, filters }),
          );
        }
      }
      return results;
    },
    {
      cacheKeyFn: (key) =>
        JSON.stringify([
          key.parentId,
          key.args.pageSize ?? null,
          key.args.pageId ?? null,
          filtersOf(key.args),
          markKey(key.mark),
          fieldsKey(key.fields),
        ]),
    },
  );
}

type ChildRow = Record<string, unknown> & { __parent: string };

/** Every parent's page of children, in one statement (see the module comment). */
function childRows(
  knex: Knex,
  viewer: Viewer,
  spec: RelationSpec,
  filters: Record<string, unknown>,
  request: PageRequest,
  parentIds: string[],
  fields: readonly string[] | undefined,
): Promise<ChildRow[]> {
  // Field filters may shape the SQL by their values (a list, a range): those pages are built per
  // call. Without filters the shape depends only on the page size and on whether it continues.
  if (Object.keys(filters).length > 0) {
    const page = childPage(knex, spec, viewer, filters, request, fields);
    return knex.raw(rowsPerParent(spec.parentType), [parentIds, page]).then((result) => result.rows);
  }
  const values: Record<string, unknown> = { parents: parentIds, viewer };
  request.after?.forEach((value, i) => (values[`after${i}`] = value));
  return pageTemplate(spec, request, fields).rows<ChildRow>(knex, values);
}

/**
 * The rows of a query correlated on `p.parent_id`, for every parent of a batch, each tagged with
 * its parent as `__parent`: `knex.raw(rowsPerParent(type), [parentIds, inner])`. The parent ids are
 * an arrayParameter, so the statement keeps one plan whatever the batch size.
 */
export const rowsPerParent = (parentType: 'uuid' | 'text'): string =>
  `select p.parent_id as "__parent", t.* from unnest(${arrayParameter(parentType)}) as p(parent_id) cross join lateral (?) t`;

/**
 * The statement a relation's unfiltered first page of `size` sends for `parentIds` (as
 * relationLoader builds it, values inline), for plan tests to EXPLAIN.
 */
export function firstPageStatement(
  knex: Knex,
  viewer: Viewer,
  spec: RelationSpec,
  parentIds: readonly string[],
  size: number,
): Knex.Raw {
  const request: PageRequest = { size, after: null, fingerprint: () => '' };
  const page = childPage(knex, spec, viewer, {}, request, undefined);
  return knex.raw(rowsPerParent(spec.parentType), [[...parentIds], page]);
}

function childrenOf(knex: Knex, spec: RelationSpec, viewer: Viewer, filters: Record<string, unknown>) {
  const query = spec.children(knex, viewer);
  if (spec.filter) spec.filter(query, filters);
  return query;
}

function childPage(
  knex: Knex,
  spec: RelationSpec,
  viewer: Viewer,
  filters: Record<string, unknown>,
  request: PageRequest,
  fields: readonly string[] | undefined,
) {
  const order = { columns: spec.child.order.columns, direction: spec.child.order.direction ?? 'asc' };
  const page = (children: Knex.QueryBuilder, orderFirst: readonly string[] = []) => {
    for (const column of orderFirst) children.orderBy(column, order.direction);
    return applyKeyset(children.select(selectColumns(spec.child, fields)), order, request);
  };
  const ways = spec.ways ?? [];
  if (ways.length === 0) return page(childrenOf(knex, spec, viewer, filters));
  // One branch per way, each kept to its parents by its condition and the negation of those
  // before it; a parent's rows come from one branch, ordered again outside (a page at most).
  const taken: Knex.Raw[] = [];
  const branches = ways.map((way) => {
    const children = way.children(knex, viewer);
    if (spec.filter) spec.filter(children, filters);
    for (const before of taken) children.whereRaw('not coalesce(?, false)', [before]);
    const when = way.when(knex);
    taken.push(when);
    return page(children.whereRaw('coalesce(?, false)', [when]), way.orderFirst);
  });
  const rest = childrenOf(knex, spec, viewer, filters);
  for (const before of taken) rest.whereRaw('not coalesce(?, false)', [before]);
  branches.push(page(rest));
  const union = knex.raw(`(${branches.map(() => '(?)').join(' union all ')}) as u`, branches);
  const outer = knex.select('*').from(union);
  for (const field of spec.child.order.fields) outer.orderBy(`u.${field}`, order.direction);
  return outer;
}

/** Compiled unfiltered pages per relation, by page size and first/continued page (sql-template). */
type PageValues = Record<string, unknown>;
const pageTemplates = new WeakMap<RelationSpec, Map<string, SqlTemplate<PageValues>>>();

function pageTemplate(
  spec: RelationSpec,
  request: PageRequest,
  fields: readonly string[] | undefined,
): SqlTemplate<PageValues> {
  let templates = pageTemplates.get(spec);
  if (!templates) pageTemplates.set(spec, (templates = new Map<string, SqlTemplate<PageValues>>()));
  const key = `${request.size}:${request.after?.length ?? 0}:${fieldsKey(fields)}`;
  let template = templates.get(key);
  if (!template) {
    const afterNames = (request.after ?? []).map((_, i) => `after${i}`);
    template = sqlTemplate<PageValues>(['parents', 'viewer', ...afterNames], (knex, params) => {
      const after = afterNames.map((name) => params[name]);
      const page = childPage(
        knex,
        spec,
        params.viewer as Viewer,
        {},
        { ...request, after: request.after ? after : null },
        fields,
      );
      return knex.raw(rowsPerParent(spec.parentType), [params.parents as string[], page]);
    });
    templates.set(key, template);
  }
  return template;
}

/**
 * One loader per relation, each made on first use: a request touches a few of a subgraph's
 * relations, and making every loader (two DataLoaders and their closures each) per request cost
 * the cheapest queries more than their statement did.
 */
/** The nested pages of one request, each relation's loader made the first time it is asked for. */
export interface RelationLoaders<N extends string, M = any> {
  get(name: N): ReturnType<typeof relationLoader<M>>;
}

export function relationLoaders<N extends string, M = any>(
  knex: Knex,
  codec: CursorCodec,
  viewer: Viewer,
  specs: Record<N, RelationSpec>,
): RelationLoaders<N, M> {
  const made = new Map<N, ReturnType<typeof relationLoader<M>>>();
  return {
    get(name) {
      let loader = made.get(name);
      if (!loader) {
        loader = relationLoader<M>(knex, codec, viewer, specs[name]);
        made.set(name, loader);
      }
      return loader;
    },
  };
}

/**
 * Group.mobilityTransactions and Group.mobilityTransactionAnomalies: a group's page covers its
 * descendant groups. Written as `group_id in (descendants)` with the page's order and limit, the
 * statement read and sorted every transaction of every descendant before keeping a page (a
 * company group: the whole organization's). Here each descendant gives at most one page, read in
 * keyset order from its (group_id, order) index, and the group's page is the first rows of their
 * merge: the cost is the number of descendants times the page size, whatever their history.
 *
 * Same contract as a relation of libs/paging (relations.ts): parents asking for the same page
 * share one statement, the fingerprint is the relation's (so a cursor of either works for the
 * other), `count` is a second statement sent only when selected.
 */
import { arrayParameter } from '@fleetgraph/db';
import DataLoader from 'dataloader';
import type { Knex } from 'knex';
import {
  applyKeyset,
  fingerprint,
  from,
  keyOf,
  pageRequest,
  selectColumns,
  toPage,
  type CursorCodec,
  type Page,
  type PageRequest,
  type RelationKey,
  type TableSpec,
} from '@fleetgraph/paging';

export interface GroupRelation {
  /** The relation's name: its cursors' fingerprint. */
  name: string;
  child: TableSpec;
  /** The child's group column (unqualified). */
  groupColumn: string;
  filter(query: Knex.QueryBuilder, filters: Record<string, unknown>): void;
}

/** The arguments of a key other than paging, without absent values (as relations.ts). */
function filtersOf(args: RelationKey['args']): Record<string, unknown> {
  const { pageSize: _size, pageId: _id, ...rest } = args;
  return Object.fromEntries(
    Object.entries(rest)
      .filter(([, v]) => v !== undefined && v !== null)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/** Every parent's page: per descendant group its first rows after the cursor, merged. */
function pageStatement(
  knex: Knex,
  relation: GroupRelation,
  filters: Record<string, unknown>,
  request: PageRequest,
  parentIds: string[],
  fields: readonly string[] | undefined,
) {
  const { child } = relation;
  const direction = child.order.direction ?? 'asc';
  const perGroup = from(knex, child)
    .select(selectColumns(child, fields))
    .whereRaw(`${child.alias}.${relation.groupColumn} = ga.descendant_id`);
  relation.filter(perGroup, filters);
  applyKeyset(perGroup, { columns: child.order.columns, direction }, request);
  const order = child.order.fields.map((f) => `x."${f}" ${direction}`).join(', ');
  return knex.raw(
    `select p.parent_id as "__parent", y.* from unnest(${arrayParameter('uuid')}) as p(parent_id)
      cross join lateral (
        select x.* from fleet_contract.group_ancestors_v1 ga cross join lateral (?) x
         where ga.ancestor_id = p.parent_id
         order by ${order} limit ${request.size + 1}) y`,
    [parentIds, perGroup],
  );
}

export function groupPageLoader<M>(knex: Knex, codec: CursorCodec, relation: GroupRelation) {
  const { child } = relation;
  const counts = new DataLoader<{ parentId: string; filters: Record<string, unknown> }, number, string>(
    async (keys) => {
      const found = new Map<string, number>();
      const batches = new Map<string, { filters: Record<string, unknown>; parents: Set<string> }>();
      for (const k of keys) {
        const id = JSON.stringify(k.filters);
        const batch = batches.get(id) ?? { filters: k.filters, parents: new Set<string>() };
        batch.parents.add(k.parentId);
        batches.set(id, batch);
      }
      for (const [id, { filters, parents }] of batches) {
        const inner = from(knex, child)
          .count('* as n')
          .whereRaw(
            `${child.alias}.${relation.groupColumn} in (select ga.descendant_id from fleet_contract.group_ancestors_v1 ga where ga.ancestor_id = p.parent_id)`,
          );
        relation.filter(inner, filters);
        const rows: Array<{ __parent: string; n: number }> = (
          await knex.raw(
            `select p.parent_id as "__parent", c.n from unnest(${arrayParameter('uuid')}) as p(parent_id) cross join lateral (?) c`,
            [[...parents], inner],
          )
        ).rows;
        for (const r of rows) found.set(JSON.stringify([String(r.__parent), id]), Number(r.n));
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
          fields: RelationKey['fields'];
          indexes: number[];
        }
      >();
      keys.forEach((key, index) => {
        try {
          const filters = filtersOf(key.args);
          const request = pageRequest(codec, key.args, undefined, () =>
            fingerprint(relation.name, key.parentId, filters),
          );
          const id = JSON.stringify([request.size, request.after, filters, key.fields?.join(',') ?? '*']);
          const batch = batches.get(id) ?? { request, filters, fields: key.fields, indexes: [] };
          batch.indexes.push(index);
          batches.set(id, batch);
        } catch (error) {
          results[index] = error as Error;
        }
      });
      for (const { request, filters, fields, indexes } of batches.values()) {
        const parentIds = [...new Set(indexes.map((i) => keys[i]!.parentId.toLowerCase()))];
        const rows = (await pageStatement(knex, relation, filters, request, parentIds, fields)).rows as Array<
          Record<string, unknown>
        >;
        const byParent = new Map<string, M[]>();
        for (const row of rows) {
          const parent = String(row.__parent);
          const list = byParent.get(parent);
          if (list) list.push(row as M);
          else byParent.set(parent, [row as M]);
        }
        for (const index of indexes) {
          const parentId = keys[index]!.parentId;
          results[index] = toPage(
            codec,
            { ...request, fingerprint: () => fingerprint(relation.name, parentId, filters) },
            byParent.get(parentId.toLowerCase()) ?? [],
            keyOf(child) as (m: M) => unknown[],
            () => counts.load({ parentId: parentId.toLowerCase(), filters }),
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
          key.fields?.join(',') ?? '*',
        ]),
    },
  );
}

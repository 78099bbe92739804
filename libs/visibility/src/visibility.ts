/**
 * Who may see what, as SQL over the contract fleet-core publishes (schema fleet_contract, views
 * `*_v1`, migration apps/fleet-core/migrations/20261123_006_contract_v1.ts). Rule (spec section 1):
 * an account sees the groups it is a member of, all their descendants, and the assets (devices,
 * vehicles, drivers) placed in any of those groups. It sees the accounts that are members of a
 * group it sees (and always itself).
 *
 * Two forms, for two kinds of statement:
 * - `visibleDevices(knex, uid)` and its siblings return a subquery selecting one `id` column, to
 *   be used as `whereIn('x.id', visibleDevices(knex, uid))`: PostgreSQL plans it as a semi-join
 *   over the whole visible set. Its cost grows with what the viewer sees. For lists that have no smaller bound, and for root
 *   lists of a small fleet; a large fleet seen from the top walks its organization in page order
 *   instead (rootListScope, visibleInOrder, visibleList).
 * - `deviceVisibleTo(knex, uid, 'x.id')` and its siblings return a condition on a row already
 *   narrowed some other way (by id, by parent): a few index probes per row, whatever the viewer
 *   sees (the asset's groups, then their ancestors among the viewer's groups). Use it for every
 *   lookup by key and every list bounded by its parent.
 *   An account's assets under a page of accounts are bounded by what that account sees:
 *   `x.id = any(visibleIdsOf(knex, kind, 'p.parent_id'))`, then the viewer's per-row test; or,
 *   for an account that sees a large fleet (`seesLargeFleet`), its organization walked in page
 *   order with `seenByAccountIn` and the viewer's test on each row.
 * The views are inlined by the planner, so both cost the same as joins on fleet's tables.
 */
import type { Knex } from 'knex';
import type { Viewer } from '@fleetgraph/auth';
import { whereAfter, type KeysetOrder, type RootPageOptions } from '@fleetgraph/paging';

export const FLEET_CONTRACT = 'fleet_contract';

export function visibleGroups(knex: Knex, accountId: Viewer): Knex.QueryBuilder {
  return knex
    .select('v.group_id as id')
    .from('fleet_contract.account_visible_groups_v1 as v')
    .where('v.account_id', accountId);
}

function visibleAssets(
  knex: Knex,
  kind: 'vehicle' | 'device' | 'driver',
  accountId: Viewer,
): Knex.QueryBuilder {
  return knex
    .select(`v.${kind}_id as id`)
    .from(`fleet_contract.account_visible_${kind}s_v1 as v`)
    .where('v.account_id', accountId);
}

export const visibleDevices = (knex: Knex, accountId: Viewer): Knex.QueryBuilder =>
  visibleAssets(knex, 'device', accountId);
export const visibleVehicles = (knex: Knex, accountId: Viewer) => visibleAssets(knex, 'vehicle', accountId);
export const visibleDrivers = (knex: Knex, accountId: Viewer) => visibleAssets(knex, 'driver', accountId);

/**
 * A group is visible when one of its ancestors (itself included, at depth 0) is one of the
 * viewer's memberships: the same rows as account_visible_groups_v1, read from the group's side.
 * `offset 0` keeps each EXISTS a per-row subplan: pulled up into a semi-join, the planner (with
 * no table statistics) builds the viewer's whole visible set first, which is the cost this form
 * exists to avoid. Per row it reads the group's ancestors by index (descendant_id), never the
 * viewer's descendants; the viewer's memberships are read once per statement (an uncorrelated
 * subquery, hashed and kept across rows), where testing against the visible-groups view joined
 * the memberships to the ancestors again on every row (EXPLAIN ANALYZE without statistics shows
 * the difference).
 */
const groupVisible = (account: '?' | '??') => `exists (select 1 from ${FLEET_CONTRACT}.group_ancestors_v1 vg
  where vg.descendant_id = ?? and vg.ancestor_id in (select vm.group_id from ${FLEET_CONTRACT}.account_groups_v1 vm
    where vm.account_id = ${account} offset 0) offset 0)`;
const GROUP_VISIBLE = groupVisible('?');

/** True for a row whose group (`column`, e.g. 'g.id') the account sees. */
export function groupVisibleTo(knex: Knex, accountId: Viewer, column: string): Knex.Raw {
  return knex.raw(GROUP_VISIBLE, [column, accountId]);
}

function assetVisibleTo(
  knex: Knex,
  kind: 'vehicle' | 'device' | 'driver',
  accountId: Viewer,
  column: string,
): Knex.Raw {
  return knex.raw(
    `exists (select 1 from ${FLEET_CONTRACT}.group_${kind}s_v1 ga
      where ga.${kind}_id = ?? and ${GROUP_VISIBLE} offset 0)`,
    [column, 'ga.group_id', accountId],
  );
}

/**
 * True for a row whose asset (`assetColumn`; for 'group', the group itself) the account in
 * `accountColumn` sees: the per-row test for an account that is a column of the statement (a
 * nested page's parent, `p.parent_id`) rather than a value. Its memberships are read per account.
 */
export function seenByAccountIn(
  knex: Knex,
  kind: IdKind,
  accountColumn: string,
  assetColumn: string,
): Knex.Raw {
  if (kind === 'group') return knex.raw(groupVisible('??'), [assetColumn, accountColumn]);
  return knex.raw(
    `exists (select 1 from ${FLEET_CONTRACT}.group_${kind}s_v1 ga
      where ga.${kind}_id = ?? and ${groupVisible('??')} offset 0)`,
    [assetColumn, 'ga.group_id', accountColumn],
  );
}

/** True for a row whose device (`column`, e.g. 'd.id') is placed in a group the account sees. */
export const deviceVisibleTo = (knex: Knex, accountId: Viewer, column: string) =>
  assetVisibleTo(knex, 'device', accountId, column);
/** True for a row whose vehicle (`column`) is placed in a group the account sees. */
export const vehicleVisibleTo = (knex: Knex, accountId: Viewer, column: string) =>
  assetVisibleTo(knex, 'vehicle', accountId, column);
/** True for a row whose driver (`column`) is placed in a group the account sees. */
export const driverVisibleTo = (knex: Knex, accountId: Viewer, column: string) =>
  assetVisibleTo(knex, 'driver', accountId, column);

/**
 * The ids of what the account in `accountColumn` sees (a column of the statement, e.g. a nested
 * page's `p.parent_id`), as an array expression for `x.id = any(...)`: its memberships, their
 * descendants, and (for assets) their placements, each step an index range, so it costs what that
 * account sees and nothing of what anyone else does. For "the assets of this account the viewer
 * sees" under many accounts: `x.id = any(visibleIdsOf(...))` and a per-row test for the viewer
 * (`vehicleVisibleTo`...). `= any` of an array is a condition on the child's own index, read in
 * that index's order, so the page stops after a page of rows that pass the viewer's test; an
 * `in (subquery)` there gives the planner (without statistics) the choice of walking every child
 * in page order and testing the account's set on each, which it takes. `offset 0` keeps each step
 * a per-row index lookup, where it would otherwise hash the whole closure for every account.
 */
export function visibleIdsOf(knex: Knex, kind: IdKind, accountColumn: string): Knex.Raw {
  return idsIn(
    knex,
    kind,
    `${FLEET_CONTRACT}.account_groups_v1 m
      cross join lateral (select c.descendant_id from ${FLEET_CONTRACT}.group_ancestors_v1 c
                           where c.ancestor_id = m.group_id offset 0) c`,
    'm.account_id = ??',
    accountColumn,
  );
}

/**
 * The ids of the assets placed in group `groupColumn` (a column of the statement, e.g. a nested
 * page's `p.parent_id`) or any group under it (for 'group', those groups), as an array expression
 * for `x.id = any(...)`: the group's descendants, then their placements, each by index; the
 * subtree's cost, whatever else the organization holds.
 */
export function idsPlacedUnder(knex: Knex, kind: IdKind, groupColumn: string): Knex.Raw {
  return idsIn(knex, kind, `${FLEET_CONTRACT}.group_ancestors_v1 c`, 'c.ancestor_id = ??', groupColumn);
}

type IdKind = 'vehicle' | 'device' | 'driver' | 'group';

/** The groups `c.descendant_id` of `groups` (FROM items) where `where` (on `column`), or their placements. */
function idsIn(knex: Knex, kind: IdKind, groups: string, where: string, column: string): Knex.Raw {
  if (kind === 'group')
    return knex.raw(`array(select c.descendant_id from ${groups} where ${where})`, [column]);
  return knex.raw(
    `array(select a.${kind}_id from ${groups}
      cross join lateral (select a.${kind}_id from ${FLEET_CONTRACT}.group_${kind}s_v1 a
                           where a.group_id = c.descendant_id offset 0) a
      where ${where})`,
    [column],
  );
}

/** Columns of a row naming assets; the row is visible when any of them is. */
export type AssetColumns = Partial<Record<'device' | 'vehicle' | 'driver' | 'group', string>>;

/**
 * `set`: against the viewer's visible sets (semi-joins), for root lists nothing else bounds;
 * `row`: tested on each row, for rows already narrowed by id or by parent.
 */
export type VisibilityForm = 'set' | 'row';

const SETS = {
  device: visibleDevices,
  vehicle: visibleVehicles,
  driver: visibleDrivers,
  group: visibleGroups,
};
const ROWS = {
  device: deviceVisibleTo,
  vehicle: vehicleVisibleTo,
  driver: driverVisibleTo,
  group: groupVisibleTo,
};

/**
 * A condition (for `query.where(...)`, grouped) keeping rows where any asset of `columns` is
 * visible to the account, in the given form.
 */
export function anyAssetVisible(
  knex: Knex,
  accountId: Viewer,
  columns: AssetColumns,
  form: VisibilityForm,
): (query: Knex.QueryBuilder) => void {
  const kinds = Object.keys(columns) as Array<keyof AssetColumns>;
  return (query) => {
    for (const kind of kinds) {
      const column = columns[kind]!;
      if (form === 'set') query.orWhereIn(column, SETS[kind](knex, accountId));
      else query.orWhere(ROWS[kind](knex, accountId, column));
    }
  };
}

/**
 * How a root list of assets is best filtered for an account, decided by one statement of a few
 * index probes over fleet-core's contract, so every subgraph can ask (kept a minute per account by
 * ListScopeCache). A member of a top-level group sees everything under it, in practice most of its
 * organization; when that is a large fleet (at least `walkFromGroups` visible groups, 64 by
 * default), walking the organization's rows in page order and testing each one (`per-row`) fills
 * a page after about a page of rows. Any other account sees a subtree, usually a small one, and a
 * small fleet is cheaper built whole: its visible set (`set`) costs less than a page of per-row
 * tests, while a large fleet's visible set costs far more than walking a page.
 * Either shape selects the same rows; only the cost differs.
 */
export interface ListScope {
  shape: 'per-row' | 'set';
  /** the account's organization (null for an unknown account) */
  organizationId: string | null;
}

/** The visible groups from which a top-level member's root lists walk (VISIBILITY_WALK_FROM_GROUPS). */
export const WALK_FROM_GROUPS = 64;

// Both tests go from the account's (`a.id`) memberships by index; `offset 0` keeps each inner test
// a per-row subplan (without statistics the planner would otherwise hash whole tables), and the
// count stops at its limit (the walk threshold), each membership's descendants read by a bounded
// index range.
const TOP_MEMBER = `exists (select 1 from ${FLEET_CONTRACT}.account_groups_v1 m
                     where m.account_id = a.id
                       and not exists (select 1 from ${FLEET_CONTRACT}.group_ancestors_v1 p
                                        where p.descendant_id = m.group_id and p.depth > 0 offset 0))`;
const groupsSeen = (limit: string) => `(select count(*) from (
               select 1 from ${FLEET_CONTRACT}.account_groups_v1 m
                cross join lateral (select 1 from ${FLEET_CONTRACT}.group_ancestors_v1 c
                                     where c.ancestor_id = m.group_id limit ${limit}) c
                where m.account_id = a.id limit ${limit}) g)::int`;

/**
 * True when the account in `accountColumn` (a column of the statement, e.g. a nested page's
 * `p.parent_id`) sees a large fleet as rootListScope decides it (a top-level member seeing at
 * least WALK_FROM_GROUPS groups): for it, walking its organization's rows in page order and testing
 * each fills a page after about a page of rows. A few index probes.
 */
export function seesLargeFleet(knex: Knex, accountColumn: string, walkFrom = WALK_FROM_GROUPS): Knex.Raw {
  // Written into the statement, not bound: a bound limit leaves a generic plan nothing to cost.
  if (!Number.isSafeInteger(walkFrom) || walkFrom < 1) throw new Error(`walkFrom must be a positive integer`);
  return knex.raw(
    `(select ${TOP_MEMBER} and ${groupsSeen(String(walkFrom))} >= ${walkFrom}
        from ${FLEET_CONTRACT}.accounts_v1 a where a.id = ??)`,
    [accountColumn],
  );
}

/** The organization of the account in `accountColumn` (a column of the statement), as an expression. */
export function organizationIn(knex: Knex, accountColumn: string): Knex.Raw {
  return knex.raw(`(select a.organization_id from ${FLEET_CONTRACT}.accounts_v1 a where a.id = ??)`, [
    accountColumn,
  ]);
}

export async function rootListScope(
  knex: Knex,
  accountId: Viewer,
  options: { walkFromGroups?: number } = {},
): Promise<ListScope> {
  const walkFrom = options.walkFromGroups ?? WALK_FROM_GROUPS;
  const { rows } = await knex.raw(
    `select a.organization_id, ${TOP_MEMBER} as top, ${groupsSeen('?')} as groups
       from ${FLEET_CONTRACT}.accounts_v1 a where a.id = ?`,
    [walkFrom, walkFrom, accountId],
  );
  const row = rows[0] as { organization_id: string; top: boolean; groups: number } | undefined;
  return {
    shape: row?.top && row.groups >= walkFrom ? 'per-row' : 'set',
    organizationId: row?.organization_id ?? null,
  };
}

/**
 * Each account's ListScope, kept for `ttlMs` (60 s) per process, so the probe runs about once a
 * minute per account instead of once per request. A scope chooses how rows are read: every row
 * still passes the visibility test of the current memberships, so a membership change is seen at
 * once, and by the choice of shape within `ttlMs`. The organization it names bounds the walk; no
 * code moves an account to another organization, and if one did, its walk would find nothing
 * (never another organization's rows) until the scope expired. At most `maxEntries` (10,000)
 * accounts, the oldest dropped first; a failed probe is not kept.
 */
export class ListScopeCache {
  private readonly entries = new Map<string, { at: number; scope: Promise<ListScope> }>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    private readonly options: {
      ttlMs?: number;
      maxEntries?: number;
      now?: () => number;
      walkFromGroups?: number;
    } = {},
  ) {
    this.ttlMs = options.ttlMs ?? 60_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  scopeOf(knex: Knex, accountId: Viewer): Promise<ListScope> {
    const now = this.now();
    const kept = this.entries.get(accountId);
    if (kept && now - kept.at < this.ttlMs) return kept.scope;
    const scope = rootListScope(knex, accountId, { walkFromGroups: this.options.walkFromGroups });
    this.entries.delete(accountId);
    this.entries.set(accountId, { at: now, scope });
    scope.catch(() => {
      if (this.entries.get(accountId)?.scope === scope) this.entries.delete(accountId);
    });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return scope;
  }
}

/** The uuid right after `uuid` in PostgreSQL's order (byte order), or null after the last one. */
export function nextUuid(uuid: string): string | null {
  const value = BigInt(`0x${uuid.replace(/-/g, '')}`) + 1n;
  if (value >> 128n) return null;
  const hex = value.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** How a root list walks its organization's rows in page order (visibleInOrder). */
export interface OrganizationWalk {
  /**
   * the organization column (e.g. 'r.organization_id'); an index on (organization, ...order)
   * serves the walk, and should be the table's only index led by it: given another (say on
   * (organization, id)), the planner, without statistics, may walk that one and sort
   */
  organization: string;
  /** the list's keyset order (its TableSpec's), the last column unique */
  order: KeysetOrder;
  /**
   * SQL for a value no value of the order's first column is below (`''` for text,
   * `'-infinity'::timestamptz`): written into the statement, so code only, never input
   */
  lowest: string;
}

/** A visibility condition in either form (e.g. anyAssetVisible bound to a viewer and columns). */
export type VisibleIn = (form: VisibilityForm) => (query: Knex.QueryBuilder) => void;

/**
 * The rows of `query` (a root list) the viewer sees after the keyset position `after` (null on
 * the first page), in the shape `scope` chose; it applies the position itself (pageOf's function
 * base): a second, separate keyset condition would make the planner expect a third fewer rows
 * again. `set` keeps rows in the viewer's visible sets.
 *
 * `per-row` walks the index on (organization, ...order) and orders by the organization first (the
 * same order: the viewer sees one organization), testing each row until the page is full. It
 * bounds the organization with two row comparisons, `(org, first) >= (X, lowest)` and
 * `(org, first) < (next(X), lowest)`, the keyset position replacing the one on its side, rather
 * than `org = X`: without statistics PostgreSQL reads an equality on an unknown value as 0.5 % of
 * the table, few enough rows to sort, so it filtered every row of the organization before sorting
 * (5,127 visibility tests for a page of 51 in the plan test); row comparisons it reads as a third
 * of the table each, so it walks the index and stops with the page.
 */
export function visibleInOrder(
  query: Knex.QueryBuilder,
  scope: ListScope,
  walk: OrganizationWalk,
  visible: VisibleIn,
  after: readonly unknown[] | null,
): Knex.QueryBuilder {
  const organization = scope.organizationId;
  const next = scope.shape === 'per-row' && organization ? nextUuid(organization) : null;
  if (!organization || !next) return whereAfter(query, walk.order, after).where(visible('set'));
  const { columns } = walk.order;
  const direction = walk.order.direction ?? 'asc';
  const position = (op: '<' | '>') =>
    query.whereRaw(
      `(??, ${columns.map(() => '??').join(', ')}) ${op} (?::uuid, ${columns.map(() => '?').join(', ')})`,
      [walk.organization, ...columns, organization, ...(after as Knex.Value[])],
    );
  const bound = (op: '>=' | '<', at: string) =>
    query.whereRaw(`(??, ??) ${op} (?::uuid, ${walk.lowest})`, [walk.organization, columns[0]!, at]);
  if (after && direction === 'asc') position('>');
  else bound('>=', organization);
  if (after && direction === 'desc') position('<');
  else bound('<', next);
  return query.where(visible('row')).orderBy(walk.organization, direction);
}

/**
 * A root list's `base` and `countBase` for pageOf: the page in the scope's shape (visibleInOrder),
 * and `count` always against the visible sets, which costs the set once instead of a per-row
 * test of every row the walk would otherwise read to the end. `rows` makes the filtered rows
 * afresh (no visibility, no order).
 */
function visibleList(
  rows: () => Knex.QueryBuilder,
  scope: ListScope,
  walk: OrganizationWalk,
  visible: VisibleIn,
): { base: (after: readonly unknown[] | null) => Knex.QueryBuilder; countBase: () => Knex.QueryBuilder } {
  return {
    base: (after) => visibleInOrder(rows(), scope, walk, visible, after),
    countBase: () => rows().where(visible('set')),
  };
}

/**
 * How a root list's arguments bound its rows, which decides how visibility reads them:
 * - `key`: a filter on a key with its own index (an id, an asset, a parent) bounds the rows; each
 *   one is tested (`row`), whatever the viewer sees;
 * - `set`: other filters or an order the walk's index does not serve; the visible sets, whose
 *   plan does not depend on how rare a filtered value is;
 * - `scope`: nothing but the page bounds the list; the viewer's ListScope decides (visibleList).
 */
export type RootListBound = 'key' | 'set' | 'scope';

/**
 * A root list's `base` (and `countBase`) for pageOf, read as `bound` says. `rows` makes the
 * filtered rows afresh (no visibility, no order); `scope` is asked only when it decides.
 */
export async function visibleRootList(
  rows: () => Knex.QueryBuilder,
  bound: RootListBound,
  visible: VisibleIn,
  walk: OrganizationWalk,
  scope: () => Promise<ListScope>,
): Promise<Pick<RootPageOptions, 'base' | 'countBase'>> {
  if (bound === 'key') return { base: rows().where(visible('row')) };
  if (bound === 'set') return { base: rows().where(visible('set')) };
  return visibleList(rows, await scope(), walk, visible);
}

/** True for a row whose account (`column`) is the viewer or a member of a group the viewer sees. */
export function accountVisibleTo(knex: Knex, accountId: Viewer, column: string): Knex.Raw {
  return knex.raw(
    `(?? = ? or exists (select 1 from ${FLEET_CONTRACT}.account_groups_v1 ma
      where ma.account_id = ?? and ${GROUP_VISIBLE} offset 0))`,
    [column, accountId, column, 'ma.group_id', accountId],
  );
}

export function visibleAccounts(knex: Knex, accountId: Viewer): Knex.QueryBuilder {
  return knex
    .select('a.account_id as id')
    .from(`${FLEET_CONTRACT}.account_groups_v1 as a`)
    .whereIn('a.group_id', visibleGroups(knex, accountId))
    .union(knex.raw('select ?::uuid as id', [accountId]));
}

/** The organization of an account (a subquery selecting `organization_id`). */
export function organizationOf(knex: Knex, accountId: Viewer): Knex.QueryBuilder {
  return knex.select('a.organization_id').from('fleet_contract.accounts_v1 as a').where('a.id', accountId);
}

/**
 * Recomputes the transitive closure of the group hierarchy (ancestor, descendant, depth; every
 * group is its own ancestor at depth 0) for one organization, or all when none is given.
 * The hierarchy must be acyclic; the depth bound only guards against a cycle slipping through.
 */
export async function refreshGroupClosure(knex: Knex, organizationId?: string): Promise<void> {
  const scope = organizationId ? knex.raw('where g.organization_id = ?', [organizationId]) : knex.raw('');
  await knex.transaction(async (trx) => {
    if (organizationId) {
      await trx.raw(
        'delete from fleet.group_closure c using fleet.groups g where g.id = c.descendant_id and g.organization_id = ?',
        [organizationId],
      );
    } else {
      await trx.raw('delete from fleet.group_closure');
    }
    await trx.raw(
      `with recursive closure(ancestor_id, descendant_id, depth) as (
         select g.id, g.id, 0 from fleet.groups g ${scope.toQuery()}
         union all
         select c.ancestor_id, p.group_id, c.depth + 1
           from closure c join fleet.group_parents p on p.parent_id = c.descendant_id
          where c.depth < 64
       )
       insert into fleet.group_closure (ancestor_id, descendant_id, depth)
       select ancestor_id, descendant_id, min(depth) from closure group by ancestor_id, descendant_id`,
    );
  });
}

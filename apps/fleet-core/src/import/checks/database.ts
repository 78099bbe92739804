/**
 * The dataset against the database: nothing of the file may exist already (ids, e-mails,
 * product names). Sign-ins live at the SSO, which fleet-core does not read: the caller may pass
 * `signInConflicts` to check account ids and e-mails there too.
 */
import type { Knex } from 'knex';
import { q, type Problem, type Seen } from './context';

/** Which of these account ids / lower-case e-mails already have a sign-in elsewhere (the SSO). */
export interface SignInConflicts {
  accountIds(ids: string[]): Promise<Set<string>>;
  emails(emails: string[]): Promise<Set<string>>;
}

/** Products of the database by name and by id. */
export async function databaseProducts(knex: Knex): Promise<Map<string, string>> {
  const dbProducts = await knex('fleet.products').select('id', 'name');
  const byKey = new Map<string, string>();
  for (const p of dbProducts as Array<{ id: string; name: string }>) {
    byKey.set(p.name, p.id);
    byKey.set(p.id, p.id);
  }
  return byKey;
}

export async function checkAgainstDatabase(
  knex: Knex,
  seen: Seen,
  dbProductByKey: Map<string, string>,
  problem: Problem,
  signIns?: SignInConflicts,
): Promise<void> {
  for (const [name, path] of seen.productNames) {
    if (dbProductByKey.has(name)) {
      problem(
        path,
        `product ${q(name)} already exists in the database (refer to it by name from devices without listing it)`,
      );
    }
  }
  const report = async (
    map: Map<string, string>,
    sql: string,
    what: string,
    elsewhere?: (keys: string[]) => Promise<Set<string>>,
  ) => {
    const keys = [...map.keys()];
    if (keys.length === 0) return;
    const { rows } = await knex.raw<{ rows: Array<{ key: string }> }>(sql, [keys]);
    const found = new Set(rows.map((r) => r.key));
    if (elsewhere) for (const key of await elsewhere(keys)) found.add(key);
    for (const [k, path] of map)
      if (found.has(k)) problem(path, `${what} ${q(k)} already exists in the database`);
  };
  const byId = (table: string, type = 'uuid') =>
    `select id::text as key from fleet.${table} where id = any(?::${type}[])`;
  await report(seen.orgIds, byId('organizations'), 'organization id');
  await report(seen.productIds, byId('products'), 'product id');
  await report(seen.accountIds, byId('accounts'), 'account id', signIns?.accountIds);
  await report(seen.groupIds, byId('groups'), 'group id');
  await report(seen.vehicleIds, byId('vehicles'), 'vehicle id');
  await report(seen.deviceIds, byId('devices', 'text'), 'device id');
  await report(seen.driverIds, byId('drivers'), 'driver id');
  await report(seen.tripIds, byId('trips'), 'trip id');
  const emailPaths = new Map([...seen.emails].map(([email, { path }]) => [email, path]));
  await report(
    emailPaths,
    'select lower(email) as key from fleet.accounts where lower(email) = any(?::text[])',
    'account with email',
    signIns?.emails,
  );
}

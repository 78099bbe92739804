/** sso.consents: the scopes a user approved for an application (remembered; widened on approval). */
import type { Knex } from '@fleetgraph/db';

export async function hasConsent(
  db: Knex,
  userId: string,
  clientId: string,
  scopes: string[],
): Promise<boolean> {
  const row = await db('sso.consents')
    .select('scopes')
    .where({ user_id: userId, client_id: clientId })
    .first();
  return !!row && scopes.every((scope) => (row.scopes as string[]).includes(scope));
}

export async function grantConsent(
  db: Knex,
  userId: string,
  clientId: string,
  scopes: string[],
): Promise<void> {
  await db.raw(
    `insert into sso.consents (user_id, client_id, scopes) values (?, ?, ?::text[])
     on conflict (user_id, client_id) do update
       set scopes = array(select distinct unnest(sso.consents.scopes || excluded.scopes)), granted_at = now()`,
    [userId, clientId, scopes],
  );
}

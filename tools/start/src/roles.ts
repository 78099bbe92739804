/**
 * Which database user each service connects as. By default (`DATABASE_ROLES=auto`) every app gets
 * its own role (libs/db roles.ts) when the administrator URL may create roles: the embedded
 * database always can; a managed server whose user cannot falls back to the shared URL with a
 * warning. `per-app` insists (start fails without the right), `shared` connects every app as
 * the administrator (the pre-role behaviour).
 */
import { createKnex, provisionAppRoles, type AppRoleSpec } from '@fleetgraph/db';
import { SSO_CONTRACT_SCHEMA, SSO_SCHEMA } from '@fleetgraph/sso';
import type { SubgraphUnit } from '@fleetgraph/subgraphs';
import type { Env } from './runners';

export type RoleMode = 'auto' | 'per-app' | 'shared';

export function roleMode(env: Env): RoleMode {
  const value = env.DATABASE_ROLES ?? 'auto';
  if (value === 'auto' || value === 'per-app' || value === 'shared') return value;
  throw new Error(`DATABASE_ROLES must be auto, per-app or shared (got "${value}")`);
}

/**
 * Every app's schemas: a subgraph owns its schema and contracts and reads its dependencies'
 * contracts; every token verifier (gateway, subgraphs) reads the SSO's revocation contract.
 */
export function appRoleSpecs(units: SubgraphUnit[]): AppRoleSpec[] {
  const contracts = new Map(units.map((u) => [u.manifest.name, u.manifest.contracts ?? []]));
  const subgraphs = units.map(({ manifest }) => ({
    app: manifest.name,
    owns: [manifest.dbSchema, ...(manifest.contracts ?? [])],
    reads: [SSO_CONTRACT_SCHEMA, ...(manifest.dependsOn ?? []).flatMap((name) => contracts.get(name) ?? [])],
  }));
  return [
    { app: 'sso', owns: [SSO_SCHEMA, SSO_CONTRACT_SCHEMA], reads: [] },
    { app: 'gateway', owns: [], reads: [SSO_CONTRACT_SCHEMA] },
    ...subgraphs,
  ];
}

async function mayCreateRoles(adminUrl: string): Promise<boolean> {
  const knex = createKnex({ url: adminUrl, pool: { min: 0, max: 1 } });
  try {
    const result = await knex.raw(
      'select rolsuper or rolcreaterole as may from pg_roles where rolname = current_user',
    );
    return Boolean(result.rows[0]?.may);
  } finally {
    await knex.destroy();
  }
}

/** The database URL of each app (an app missing from the answer uses the administrator URL). */
export async function appDatabaseUrls(
  adminUrl: string,
  units: SubgraphUnit[],
  env: Env,
  log: (line: string) => void,
): Promise<Record<string, string>> {
  const mode = roleMode(env);
  if (mode === 'shared') return {};
  if (mode === 'auto' && !(await mayCreateRoles(adminUrl))) {
    log('warning: the database user may not create roles; every app connects as it (DATABASE_ROLES=shared)');
    return {};
  }
  const knex = createKnex({ url: adminUrl, pool: { min: 0, max: 1 } });
  try {
    const { urls } = await provisionAppRoles(knex, adminUrl, appRoleSpecs(units));
    return urls;
  } finally {
    await knex.destroy();
  }
}

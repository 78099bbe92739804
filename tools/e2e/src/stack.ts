/** Boots the real platform (SSO, subgraphs, gateway) on free ports against a throwaway database. */
import { rmSync } from 'node:fs';
import { createKnex, createTestDatabase, dropAppRoles, rolePrefix, type Knex } from '@fleetgraph/db';
import { deleteRedisKeys, freePort, scratchDir } from '@fleetgraph/testing';
import { startPlatform, type Platform } from '@fleetgraph/start';
import { GATEWAY_SECRET_HEADER } from '@fleetgraph/auth';
import { subgraphUrlVariable } from '@fleetgraph/subgraph-kit';
import { loadSubgraphManifests } from '@fleetgraph/subgraphs';

export interface Stack {
  /** The running platform (replaced by restart()). */
  platform: Platform;
  knex: Knex;
  /** Stops every service and starts the platform again on the same database and ports. */
  restart(): Promise<void>;
  login(email: string, password: string): Promise<string>;
  /** The database role an app connects as (DATABASE_ROLES=auto). */
  roleOf(app: string): string;
  /**
   * A connection as an app's own role, without its password: the test server trusts local
   * connections (as CI's does). Closed with the stack.
   */
  connectAs(app: string): Knex;
  /**
   * The environment of another gateway on this platform (its SSO, subgraphs and shared secret), as
   * the platform configures its own, with `extra` on top: for loadGatewayConfig in a test.
   */
  gatewayEnv(extra?: Record<string, string>): Record<string, string>;
  /** Prefix of the stack's keys in Redis (rate-limit and budget buckets, revocations); close() deletes them. */
  readonly redisPrefix: string;
  close(): Promise<void>;
}

/** `env` adds to the platform's environment (e.g. REDIS_URL); `seed: false` boots without demo data. */
/**
 * Starts with a free port per service; if another process took one of them between the pick and
 * the listen (EADDRINUSE), the platform closed itself and starts again on other ports.
 */
async function startOnFreePorts(
  names: string[],
  start: (ports: Record<string, number>) => Promise<Platform>,
): Promise<Platform> {
  for (let attempt = 1; ; attempt++) {
    const ports: Record<string, number> = {};
    for (const name of names) ports[name] = await freePort();
    try {
      return await start(ports);
    } catch (error) {
      if (attempt >= 3 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
}

export async function startStack(
  label: string,
  env: Record<string, string> = {},
  options: { seed?: boolean } = {},
): Promise<Stack> {
  const database = await createTestDatabase(label);
  const dataDir = scratchDir('fleetgraph-e2e');
  const names = ['gateway', 'sso', ...(await loadSubgraphManifests()).map((s) => s.name)];
  let ports: Record<string, number> = {};
  // Every stack signs in the same demo user: its rate-limit buckets and its revocation list (when a
  // test gives it REDIS_URL) in the shared Redis must be its own, or stacks running side by side
  // spend each other's budget. A second gateway of the stack (gatewayEnv) shares them.
  // Closing the stack deletes them.
  const redisPrefix = `fleetgraph-test:${database.name}:`;
  const redisPrefixes = {
    RATE_LIMIT_PREFIX: `${redisPrefix}ratelimit:`,
    COST_BUDGET_PREFIX: `${redisPrefix}budget:`,
    REVOCATION_PREFIX: `${redisPrefix}revoked:`,
  };
  const startOn = (chosen: Record<string, number>) => {
    ports = chosen;
    return startPlatform({
      env: {
        DATABASE_URL: database.url,
        LOG_LEVEL: 'silent',
        PATH: process.env.PATH,
        ...redisPrefixes,
        ...env,
      },
      dataDir,
      ports: chosen,
      ...(options.seed === false ? { seed: false } : {}),
    });
  };
  let platform = await startOnFreePorts(names, startOn);
  const knex = createKnex({ url: database.url });
  const roleConnections: Knex[] = [];
  const roleOf = (app: string) => `${rolePrefix(database.name)}_${app.replace(/-/g, '_')}`;
  return {
    get platform() {
      return platform;
    },
    knex,
    redisPrefix,
    async restart() {
      await platform.close();
      // The same ports: the SSO's address is the tokens' issuer.
      platform = await startOn(ports);
    },
    async login(email, password) {
      const response = await fetch(`${platform.urls.sso}/oauth/token`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'password', username: email, password }),
      });
      const body = (await response.json()) as { access_token?: string; error?: string };
      if (!body.access_token) throw new Error(`login of ${email} failed: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    roleOf,
    connectAs(app) {
      const url = new URL(platform.databaseUrl);
      url.username = roleOf(app);
      url.password = '';
      const connection = createKnex({ url: url.toString(), pool: { min: 0, max: 1 } });
      roleConnections.push(connection);
      return connection;
    },
    gatewayEnv(extra = {}) {
      return {
        LOG_LEVEL: 'silent',
        ...redisPrefixes,
        SSO_ISSUER: platform.urls.sso,
        SUBGRAPH_SHARED_SECRET: platform.subgraphHeaders[GATEWAY_SECRET_HEADER]!,
        ...Object.fromEntries(
          Object.entries(platform.urls.subgraphs).map(([name, url]) => [subgraphUrlVariable(name), url]),
        ),
        ...extra,
      };
    },
    async close() {
      for (const connection of roleConnections) await connection.destroy();
      await knex.destroy();
      await platform.close();
      await database.drop();
      // The per-app roles of this database own nothing once it is gone.
      const server = createKnex({ url: process.env.DATABASE_URL as string, pool: { min: 0, max: 1 } });
      await dropAppRoles(server, database.name).finally(() => server.destroy());
      rmSync(dataDir, { recursive: true, force: true });
      if (env.REDIS_URL) await deleteRedisKeys(env.REDIS_URL, redisPrefix);
    },
  };
}

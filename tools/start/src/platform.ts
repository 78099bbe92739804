/**
 * Boots the whole platform in one process: database (embedded unless DATABASE_URL), migrations,
 * demo data on first start, the SSO, every subgraph, then the gateway. `npm start` and the
 * cross-service tests use the same function.
 */
import type { FastifyInstance } from 'fastify';
import { createKnex, resolveDatabase } from '@fleetgraph/db';
import { buildApp as buildSso, loadSsoConfig, migrations as ssoMigrations, SSO_SCHEMA } from '@fleetgraph/sso';
import { buildApp as buildFleetCore, loadFleetCoreConfig, migrations as fleetMigrations, FLEET_SCHEMA } from '@fleetgraph/fleet-core';
import { buildApp as buildGateway, loadGatewayConfig } from '@fleetgraph/gateway';
import { migrateSchema } from '@fleetgraph/db';
import { isSeeded, seedDemo } from '@fleetgraph/seed';
import { loadDevSecrets } from './secrets';

export interface PlatformOptions {
  env?: Record<string, string | undefined>;
  dataDir: string;
  /** Seed the demo data when the database is empty (default true). */
  seed?: boolean;
  ports?: { gateway?: number; sso?: number; fleetCore?: number };
  host?: string;
  log?: (line: string) => void;
}

export interface Platform {
  urls: { gateway: string; graphql: string; sso: string; fleetCore: string };
  databaseUrl: string;
  embeddedDatabase: boolean;
  seeded: boolean;
  apps: { sso: FastifyInstance; fleetCore: FastifyInstance; gateway: FastifyInstance };
  close(): Promise<void>;
}

export async function startPlatform(options: PlatformOptions): Promise<Platform> {
  const env = options.env ?? process.env;
  const log = options.log ?? (() => {});
  const host = options.host ?? env.HOST ?? '127.0.0.1';
  const database = await resolveDatabase({
    ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
    dataDir: options.dataDir,
    ...(env.EMBEDDED_PG_PORT ? { embeddedPort: Number(env.EMBEDDED_PG_PORT) } : {}),
  });
  log(database.embedded ? `embedded PostgreSQL ready (${new URL(database.url).port})` : 'using DATABASE_URL');
  const opened: FastifyInstance[] = [];
  const close = async () => {
    for (const app of opened.reverse()) await app.close();
    await database.stop();
  };

  try {
    const knex = createKnex({ url: database.url });
    let seeded = false;
    try {
      await migrateSchema(knex, FLEET_SCHEMA, fleetMigrations);
      await migrateSchema(knex, SSO_SCHEMA, ssoMigrations);
      if (options.seed !== false && !(await isSeeded(knex))) {
        log('first start: loading demo data');
        await seedDemo(knex, { progress: Boolean(process.stderr.isTTY), log });
        seeded = true;
      }
    } finally {
      await knex.destroy();
    }

    const secrets = loadDevSecrets(options.dataDir);
    const ports = {
      sso: options.ports?.sso ?? Number(env.SSO_PORT ?? 4100),
      fleetCore: options.ports?.fleetCore ?? Number(env.FLEET_CORE_PORT ?? 4001),
      gateway: options.ports?.gateway ?? Number(env.GATEWAY_PORT ?? 4000),
    };
    const ssoUrl = `http://localhost:${ports.sso}`;
    const shared = {
      ...env,
      SSO_ISSUER: env.SSO_ISSUER ?? ssoUrl,
      PAGING_SECRET: env.PAGING_SECRET ?? secrets.pagingSecret,
      LOG_LEVEL: env.LOG_LEVEL ?? 'warn',
      DATABASE_URL: database.url,
    };

    const sso = await buildSso({ ...loadSsoConfig({ ...shared, SSO_PORT: String(ports.sso) }), databaseUrl: database.url });
    opened.push(sso);
    await sso.listen({ port: ports.sso, host });

    const fleetCoreConfig = loadFleetCoreConfig({ ...shared, FLEET_CORE_PORT: String(ports.fleetCore) });
    const fleetCore = await buildFleetCore({ ...fleetCoreConfig, databaseUrl: database.url }, { migrate: false });
    opened.push(fleetCore);
    await fleetCore.listen({ port: ports.fleetCore, host });
    const fleetCoreUrl = `http://${host}:${ports.fleetCore}/graphql`;

    const gateway = await buildGateway(
      loadGatewayConfig({ ...shared, GATEWAY_PORT: String(ports.gateway), SUBGRAPH_FLEET_CORE_URL: fleetCoreUrl }),
    );
    opened.push(gateway);
    await gateway.listen({ port: ports.gateway, host });

    return {
      urls: {
        gateway: `http://localhost:${ports.gateway}`,
        graphql: `http://localhost:${ports.gateway}/graphql`,
        sso: ssoUrl,
        fleetCore: fleetCoreUrl,
      },
      databaseUrl: database.url,
      embeddedDatabase: database.embedded,
      seeded,
      apps: { sso, fleetCore, gateway },
      close,
    };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}

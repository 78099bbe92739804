/**
 * Boots the whole platform in one process: database (embedded unless DATABASE_URL), migrations,
 * demo data on first start, the SSO, every subgraph, then the gateway. `npm start` and the
 * cross-service tests use the same function.
 */
import type { FastifyInstance } from 'fastify';
import { createRevocationList } from '@fleetgraph/auth';
import { createKnex, migrateSchema, resolveDatabase } from '@fleetgraph/db';
import {
  buildApp as buildSso,
  ensureApplication,
  loadSsoConfig,
  migrations as ssoMigrations,
  SSO_SCHEMA,
} from '@fleetgraph/sso';
import { migrations as fleetMigrations, FLEET_SCHEMA } from '@fleetgraph/fleet-core';
import { buildApp as buildGateway, loadGatewayConfig } from '@fleetgraph/gateway';
import { isSeeded, seedDemo } from '@fleetgraph/seed';
import { loadDevSecrets } from './secrets';
import { SUBGRAPH_LAUNCHERS } from './subgraphs';

export interface PlatformOptions {
  env?: Record<string, string | undefined>;
  dataDir: string;
  /** Seed the demo data when the database is empty (default true). */
  seed?: boolean;
  /** Ports by app: `gateway`, `sso`, or a subgraph name such as `fleet-core` (0 is not allowed). */
  ports?: Record<string, number>;
  host?: string;
  log?: (line: string) => void;
}

export interface Platform {
  urls: {
    gateway: string;
    graphql: string;
    /** GraphiQL with SSO sign-in, served by the gateway */
    explorer: string;
    sso: string;
    subgraphs: Record<string, string>;
  };
  databaseUrl: string;
  embeddedDatabase: boolean;
  seeded: boolean;
  apps: Record<string, FastifyInstance>;
  close(): Promise<void>;
}

const envKey = (name: string) => name.toUpperCase().replace(/-/g, '_');

export async function startPlatform(options: PlatformOptions): Promise<Platform> {
  const env = options.env ?? process.env;
  const log = options.log ?? (() => {});
  const host = options.host ?? env.HOST ?? '127.0.0.1';
  const database = await resolveDatabase({
    ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
    dataDir: options.dataDir,
    ...(env.EMBEDDED_PG_PORT ? { embeddedPort: Number(env.EMBEDDED_PG_PORT) } : {}),
  });
  log(
    database.embedded
      ? `embedded PostgreSQL ready (port ${new URL(database.url).port})`
      : 'using DATABASE_URL',
  );
  const apps: Record<string, FastifyInstance> = {};
  // One revocation list for the SSO (writer), the gateway and the subgraphs (readers): Redis when
  // REDIS_URL is set, else in memory, which works here because all run in this process.
  const revocations = createRevocationList({
    ...(env.REDIS_URL ? { redisUrl: env.REDIS_URL } : {}),
    cacheMs: 1000,
  });
  const close = async () => {
    for (const app of Object.values(apps).reverse()) await app.close();
    await revocations.close();
    await database.stop();
  };

  try {
    const portOf = (name: string, fallback: number) =>
      options.ports?.[name] ?? Number(env[`${envKey(name)}_PORT`] ?? fallback);
    const gatewayPort = portOf('gateway', 4000);
    const gatewayUrl = `http://localhost:${gatewayPort}`;
    const secrets = loadDevSecrets(options.dataDir);
    // The explorer signs in at the SSO as an OAuth client: registered (or brought in line with
    // this start's gateway address) here, unless the environment names its own client.
    const explorerEnv = env.EXPLORER_CLIENT_ID
      ? {}
      : {
          EXPLORER_CLIENT_ID: secrets.explorerClientId,
          EXPLORER_CLIENT_SECRET: secrets.explorerClientSecret,
          EXPLORER_PUBLIC_URL: env.EXPLORER_PUBLIC_URL ?? gatewayUrl,
        };
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
      if (explorerEnv.EXPLORER_CLIENT_ID) {
        await ensureApplication(knex, {
          clientId: explorerEnv.EXPLORER_CLIENT_ID,
          clientSecret: explorerEnv.EXPLORER_CLIENT_SECRET,
          name: 'Fleetgraph explorer',
          redirectUris: [`${explorerEnv.EXPLORER_PUBLIC_URL}/explorer/callback`],
          confidential: true,
          allowedScopes: ['public', 'read', 'write'],
          grantTypes: ['authorization_code', 'refresh_token'],
        });
      }
    } finally {
      await knex.destroy();
    }

    const ssoPort = portOf('sso', 4100);
    const ssoUrl = `http://localhost:${ssoPort}`;
    const shared = {
      ...env,
      SSO_ISSUER: env.SSO_ISSUER ?? ssoUrl,
      PAGING_SECRET: env.PAGING_SECRET ?? secrets.pagingSecret,
      LOG_LEVEL: env.LOG_LEVEL ?? 'warn',
      DATABASE_URL: database.url,
    };
    const listen = async (name: string, app: FastifyInstance, port: number) => {
      apps[name] = app;
      await app.listen({ port, host });
      log(`${name} listening on ${host}:${port}`);
    };

    await listen(
      'sso',
      await buildSso(
        { ...loadSsoConfig({ ...shared, SSO_PORT: String(ssoPort) }), databaseUrl: database.url },
        { revocations },
      ),
      ssoPort,
    );

    const subgraphUrls: Record<string, string> = {};
    for (const launcher of SUBGRAPH_LAUNCHERS) {
      const port = portOf(launcher.name, launcher.defaultPort);
      const app = await launcher.build(
        { ...shared, [`${launcher.envPrefix}_PORT`]: String(port) },
        database.url,
        {
          revocations,
        },
      );
      await listen(launcher.name, app, port);
      subgraphUrls[launcher.name] = `http://${host}:${port}/graphql`;
    }

    const routing = Object.fromEntries(
      Object.entries(subgraphUrls).map(([name, url]) => [`SUBGRAPH_${envKey(name)}_URL`, url]),
    );
    await listen(
      'gateway',
      await buildGateway(
        loadGatewayConfig({
          ...shared,
          ...routing,
          ...explorerEnv,
          GATEWAY_PORT: String(gatewayPort),
        }),
        {
          revocations,
        },
      ),
      gatewayPort,
    );

    return {
      urls: {
        gateway: gatewayUrl,
        graphql: `${gatewayUrl}/graphql`,
        explorer: `${gatewayUrl}/explorer`,
        sso: ssoUrl,
        subgraphs: subgraphUrls,
      },
      databaseUrl: database.url,
      embeddedDatabase: database.embedded,
      seeded,
      apps,
      close,
    };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}

/**
 * Boots the whole platform: database (embedded unless DATABASE_URL), every schema migrated, demo
 * data on first start (each subgraph's own hook, in dependency order), the SSO, every subgraph
 * found by its manifest, then the gateway routed to them. `npm start` and the cross-service tests
 * use the same function. Services run in this process by default, or each in its own process
 * (`processes: true`), from the same manifests.
 */
import type { FastifyInstance } from 'fastify';
import { createRevocationList, GATEWAY_SECRET_HEADER, type RevocationList } from '@fleetgraph/auth';
import { createKnex, readUrlAs, resolveDatabase } from '@fleetgraph/db';
import { buildApp as buildGateway, loadGatewayConfig } from '@fleetgraph/gateway';
import { migrateAll, seedDemoData } from '@fleetgraph/seed';
import { loadDevSecrets, repoRoot } from '@fleetgraph/service-kit';
import { buildApp as buildSso, ensureApplication, loadSsoConfig } from '@fleetgraph/sso';
import { subgraphUrlVariable } from '@fleetgraph/subgraph-kit';
import { loadSubgraphUnits, type SubgraphUnit } from '@fleetgraph/subgraphs';
import { inProcessRunner, processRunner, type Env, type RunningService, type Runner } from './runners';
import { appDatabaseUrls } from './roles';

export interface PlatformOptions {
  env?: Record<string, string | undefined>;
  dataDir: string;
  /** Seed the demo data when the database is empty (default true). */
  seed?: boolean;
  /** Ports by app: `gateway`, `sso`, or a subgraph name such as `fleet-core` (0 is not allowed). */
  ports?: Record<string, number>;
  host?: string;
  log?: (line: string) => void;
  /** Start every service as its own process (as docker-compose does) instead of in this one. */
  processes?: boolean;
  /** The workspace whose subgraphs to start (default: this repository). */
  root?: string;
}

export interface Platform {
  /** Headers a direct call to a subgraph needs (the shared secret only the gateway sends). */
  subgraphHeaders: Record<string, string>;
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
  /** The Fastify apps by service name (in-process mode only). */
  apps: Record<string, FastifyInstance>;
  /** The running services, in start order. */
  services: RunningService[];
  close(): Promise<void>;
}

const envKey = (name: string) => name.toUpperCase().replace(/-/g, '_');

interface Context {
  env: Env;
  host: string;
  log: (line: string) => void;
  runner: Runner;
  revocations: RevocationList | undefined;
  /** The port of a service: `ports[name]`, else `<ENV_PREFIX>_PORT`, else its default. */
  portOf(name: string, fallback: number, envPrefix?: string): number;
}

export async function startPlatform(options: PlatformOptions): Promise<Platform> {
  const env = options.env ?? process.env;
  const log = options.log ?? (() => {});
  const host = options.host ?? env.HOST ?? '127.0.0.1';
  const units = await loadSubgraphUnits(options.root ?? repoRoot);
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
  // In one process, the SSO (writer), the gateway and the subgraphs (readers) share one
  // revocation list, following the SSO's published revocations in the database (plus Redis when
  // REDIS_URL is set). Separate processes each follow the database themselves.
  const revocations = options.processes
    ? undefined
    : createRevocationList({
        databaseUrl: database.url,
        ...(env.REDIS_URL
          ? {
              redisUrl: env.REDIS_URL,
              ...(env.REVOCATION_PREFIX ? { keyPrefix: env.REVOCATION_PREFIX } : {}),
            }
          : {}),
        // One line, not a stack.
        onError: (error, operation) => log(`revocations: ${operation}: ${(error as Error).message}`),
      });
  const services: RunningService[] = [];
  // Services first, the database last (the embedded server runs in a session of its own, so a
  // Ctrl-C reaches only this process): requests in flight finish against a live database.
  const close = async () => {
    for (const service of [...services].reverse()) await service.close();
    await revocations?.close();
    await database.stop();
  };
  const context: Context = {
    env,
    host,
    log,
    runner: options.processes ? processRunner({ log }) : inProcessRunner,
    revocations,
    portOf: (name, fallback, envPrefix = envKey(name)) =>
      options.ports?.[name] ?? Number(env[`${envPrefix}_PORT`] ?? fallback),
  };

  try {
    const gatewayUrl = `http://localhost:${context.portOf('gateway', 4000)}`;
    const secrets = loadDevSecrets(
      options.dataDir,
      units.flatMap((unit) => Object.keys(unit.manifest.secrets ?? {})),
    );
    const explorerEnv = explorerEnvironment(env, secrets, gatewayUrl);
    const seeded = await prepareDatabase(database.url, units, explorerEnv, options.seed !== false, log);
    // Each app connects as its own role (DATABASE_ROLES); migrations and demo data ran as admin.
    const databaseUrls = await appDatabaseUrls(database.url, units, env, log);
    // A standby (DATABASE_READ_URL) is read with the same role as the primary: roles replicate.
    const withDatabase = (name: string, serviceEnv: Env): Env => ({
      ...serviceEnv,
      DATABASE_URL: databaseUrls[name] ?? database.url,
      ...(env.DATABASE_READ_URL && databaseUrls[name]
        ? { DATABASE_READ_URL: readUrlAs(env.DATABASE_READ_URL, databaseUrls[name]) }
        : {}),
    });
    const ssoUrl = `http://localhost:${context.portOf('sso', 4100)}`;
    const shared: Env = {
      ...env,
      SSO_ISSUER: env.SSO_ISSUER ?? ssoUrl,
      PAGING_SECRET: env.PAGING_SECRET ?? secrets.pagingSecret,
      SUBGRAPH_SHARED_SECRET: env.SUBGRAPH_SHARED_SECRET ?? secrets.subgraphSecret,
      LOG_LEVEL: env.LOG_LEVEL ?? 'warn',
      DATABASE_URL: database.url,
    };
    // The key sealing the SSO's signing keys goes to the SSO only.
    const ssoEnv = {
      ...shared,
      SSO_KEY_ENCRYPTION_KEY: env.SSO_KEY_ENCRYPTION_KEY ?? secrets.keyEncryptionKey,
    };
    services.push(await startSso(context, withDatabase('sso', ssoEnv)));
    const subgraphUrls: Record<string, string> = {};
    for (const unit of units) {
      const own = { ...shared, ...ownSecrets(unit, env, secrets) };
      services.push(await startSubgraph(context, withDatabase(unit.manifest.name, own), unit));
      subgraphUrls[unit.manifest.name] =
        `http://${host}:${context.portOf(unit.manifest.name, unit.manifest.port)}/graphql`;
    }
    services.push(
      await startGateway(context, withDatabase('gateway', { ...shared, ...explorerEnv }), subgraphUrls),
    );
    return {
      subgraphHeaders: { [GATEWAY_SECRET_HEADER]: shared.SUBGRAPH_SHARED_SECRET as string },
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
      apps: Object.fromEntries(services.flatMap((s) => (s.app ? [[s.name, s.app]] : []))),
      services,
      close,
    };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}

/** The secrets a subgraph declares for itself: the environment's, else the generated ones. */
function ownSecrets(unit: SubgraphUnit, env: Env, secrets: ReturnType<typeof loadDevSecrets>): Env {
  return Object.fromEntries(
    Object.keys(unit.manifest.secrets ?? {}).map((name) => [name, env[name] ?? secrets.declared[name]]),
  );
}

/**
 * The explorer signs in at the SSO as an OAuth client: registered (or brought in line with this
 * start's gateway address) at start, unless the environment names its own client.
 */
function explorerEnvironment(env: Env, secrets: ReturnType<typeof loadDevSecrets>, gatewayUrl: string): Env {
  if (env.EXPLORER_CLIENT_ID) return {};
  return {
    EXPLORER_CLIENT_ID: secrets.explorerClientId,
    EXPLORER_CLIENT_SECRET: secrets.explorerClientSecret,
    EXPLORER_PUBLIC_URL: env.EXPLORER_PUBLIC_URL ?? gatewayUrl,
  };
}

/** Migrates every schema, seeds the demo data when asked, registers the explorer; true when seeded. */
export async function prepareDatabase(
  databaseUrl: string,
  units: SubgraphUnit[],
  explorerEnv: Env,
  seed: boolean,
  log: (line: string) => void,
): Promise<boolean> {
  const knex = createKnex({ url: databaseUrl });
  try {
    const manifests = units.map((u) => u.manifest);
    await migrateAll(knex, manifests);
    const summary = seed
      ? await seedDemoData(knex, manifests, { progress: Boolean(process.stderr.isTTY), log })
      : { seeded: [] };
    if (explorerEnv.EXPLORER_CLIENT_ID) {
      await ensureApplication(knex, {
        clientId: explorerEnv.EXPLORER_CLIENT_ID,
        clientSecret: explorerEnv.EXPLORER_CLIENT_SECRET as string,
        name: 'Fleetgraph explorer',
        redirectUris: [`${explorerEnv.EXPLORER_PUBLIC_URL}/explorer/callback`],
        confidential: true,
        allowedScopes: ['public', 'read', 'write'],
        grantTypes: ['authorization_code', 'refresh_token'],
      });
    }
    return summary.seeded.length > 0;
  } finally {
    await knex.destroy();
  }
}

async function startService(
  context: Context,
  spec: Omit<Parameters<Runner['start']>[0], 'entry'> & { entry: string },
): Promise<RunningService> {
  const service = await context.runner.start(spec, context.host);
  context.log(`${spec.name} listening on ${context.host}:${spec.port}`);
  return service;
}

function startSso(context: Context, shared: Env): Promise<RunningService> {
  const port = context.portOf('sso', 4100);
  const env = { ...shared, SSO_PORT: String(port) };
  return startService(context, {
    name: 'sso',
    port,
    env,
    entry: `${repoRoot}/apps/sso/src/main.ts`,
    build: async (e) =>
      buildSso(
        { ...loadSsoConfig(e), databaseUrl: e.DATABASE_URL as string },
        context.revocations ? { revocations: context.revocations } : {},
      ),
  });
}

function startSubgraph(context: Context, shared: Env, unit: SubgraphUnit): Promise<RunningService> {
  const { manifest } = unit;
  const port = context.portOf(manifest.name, manifest.port, manifest.envPrefix);
  return startService(context, {
    name: manifest.name,
    port,
    env: { ...shared, [`${manifest.envPrefix}_PORT`]: String(port) },
    entry: `${unit.project.dir}/src/main.ts`,
    build: async (e) =>
      manifest.buildApp(
        { ...manifest.loadConfig(e), databaseUrl: e.DATABASE_URL as string },
        context.revocations ? { revocations: context.revocations } : {},
      ),
  });
}

function startGateway(
  context: Context,
  shared: Env,
  subgraphUrls: Record<string, string>,
): Promise<RunningService> {
  const port = context.portOf('gateway', 4000);
  const routing = Object.fromEntries(
    Object.entries(subgraphUrls).map(([name, url]) => [subgraphUrlVariable(name), url]),
  );
  return startService(context, {
    name: 'gateway',
    port,
    env: { ...shared, ...routing, GATEWAY_PORT: String(port) },
    entry: `${repoRoot}/apps/gateway/src/main.ts`,
    build: async (e) =>
      buildGateway(loadGatewayConfig(e), context.revocations ? { revocations: context.revocations } : {}),
  });
}

/**
 * The replicated platform on containers, rendered from the subgraph manifests (so a new subgraph
 * gets its replicas and its balancer entry with no hand edit): `deploy/containers/docker-compose.yml`
 * and `deploy/containers/haproxy.cfg`.
 *
 * HAProxy is the one address of each service: clients reach the gateways (4000) and the SSOs
 * (4100) through it, and the gateways reach each subgraph's replicas through it too, so a replica
 * that dies is taken out by health checks and a request it dropped is retried on its sibling.
 * PostgreSQL runs as a primary and a streaming hot standby cloned with pg_basebackup. A one-shot
 * job (`dist/prepare/main.js`) migrates, seeds and provisions the roles before any service starts;
 * the services themselves start with DATABASE_MIGRATIONS=wait. Secrets come from the environment
 * (`deploy/containers/.env`, generated on first use, never committed).
 */
import { dump } from 'js-yaml';
import { subgraphUrlVariable } from '@fleetgraph/subgraph-kit';
import type { SubgraphManifest } from '@fleetgraph/subgraph-kit';

export const REPLICAS = 2;
export const GATEWAY_PORT = 4000;
export const SSO_PORT = 4100;
export const HAPROXY_STATS_PORT = 8404;
export const PLATFORM_IMAGE = 'fleetgraph/platform';
/**
 * Files a subgraph keeps outside PostgreSQL (dvir's attachments) are shared by its replicas and
 * the demo data job: one volume, a folder per subgraph (`<PREFIX>_FILES_DIR`). The folder exists
 * in the image, owned by its user, so the volume starts writable.
 */
export const FILES_ROOT = '/var/lib/fleetgraph/files';

type Manifest = Pick<SubgraphManifest<any>, 'name' | 'port' | 'envPrefix' | 'secrets'>;

export interface Balanced {
  /** service name (`gateway`, `sso`, a subgraph's name) */
  name: string;
  port: number;
}

const envKey = (name: string) => name.toUpperCase().replace(/-/g, '_');
export const instanceName = (service: string, index: number) => `${service}-${index}`;
export const rolePasswordVariable = (app: string) => `DATABASE_ROLE_PASSWORD_${envKey(app)}`;
/** The app's role in the `postgres` database (libs/db roles.ts: prefix `fleetgraph`). */
const roleName = (app: string) => `fleetgraph_${app.replace(/[^a-z0-9]/g, '_')}`;

/** Every secret the platform reads from deploy/containers/.env. */
export function secretNames(manifests: Manifest[]): string[] {
  return [
    'POSTGRES_PASSWORD',
    'POSTGRES_REPLICATION_PASSWORD',
    'PAGING_SECRET',
    'SUBGRAPH_SHARED_SECRET',
    'SSO_KEY_ENCRYPTION_KEY',
    'EXPLORER_CLIENT_SECRET',
    'EXPLORER_SESSION_SECRET',
    ...['sso', 'gateway', ...manifests.map((m) => m.name)].map(rolePasswordVariable),
    ...manifests.flatMap((m) => Object.keys(m.secrets ?? {})),
  ];
}

const ref = (name: string) => `\${${name}:?run: npm run containers -- up}`;

function appDatabaseUrl(app: string, host = 'postgres'): string {
  return `postgres://${roleName(app)}:${ref(rolePasswordVariable(app))}@${host}:5432/postgres`;
}

function sharedEnv(app: string): Record<string, string> {
  return {
    NODE_ENV: 'production',
    HOST: '0.0.0.0',
    LOG_LEVEL: 'warn',
    DATABASE_MIGRATIONS: 'wait',
    DATABASE_URL: appDatabaseUrl(app),
    REDIS_URL: 'redis://redis:6379',
    SSO_ISSUER: `http://localhost:${SSO_PORT}`,
    SSO_JWKS_URL: `http://haproxy:${SSO_PORT}/.well-known/jwks.json`,
    TOKEN_AUDIENCE: 'fleetgraph',
    PAGING_SECRET: ref('PAGING_SECRET'),
    SUBGRAPH_SHARED_SECRET: ref('SUBGRAPH_SHARED_SECRET'),
  };
}

const healthcheck = (port: number) => ({
  test: [
    'CMD',
    'node',
    '-e',
    `fetch('http://127.0.0.1:${port}/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))`,
  ],
  interval: '2s',
  timeout: '3s',
  retries: 3,
  start_period: '60s',
});

const filesDir = (m: Manifest) => ({ [`${m.envPrefix}_FILES_DIR`]: `${FILES_ROOT}/${m.name}` });

/** What a subgraph's code reads at start: its secrets and the folder of its files. */
const subgraphEnv = (m: Manifest) => ({
  // A subgraph's read-only statements go to the hot standby (its read pool); the SSO and the
  // gateway write or LISTEN, which only the primary can do.
  DATABASE_READ_URL: appDatabaseUrl(m.name, 'postgres-standby'),
  ...filesDir(m),
  ...Object.fromEntries(Object.keys(m.secrets ?? {}).map((name) => [name, ref(name)])),
});

function appService(app: string, entry: string, port: number, env: Record<string, string>) {
  return {
    image: PLATFORM_IMAGE,
    command: ['node', `dist/${entry}/main.js`],
    restart: 'unless-stopped',
    environment: { ...sharedEnv(app), ...env, HEALTH_PORT: String(port) },
    healthcheck: healthcheck(port),
    depends_on: {
      prepare: { condition: 'service_completed_successfully' },
      redis: { condition: 'service_started' },
    },
  };
}

export function renderCompose(manifests: Manifest[]): string {
  const services: Record<string, unknown> = {
    postgres: {
      image: 'fleetgraph/postgres',
      restart: 'unless-stopped',
      environment: {
        POSTGRES_PASSWORD: ref('POSTGRES_PASSWORD'),
        POSTGRES_DB: 'postgres',
        POSTGRES_REPLICATION_PASSWORD: ref('POSTGRES_REPLICATION_PASSWORD'),
      },
      command: [
        'postgres',
        '-c',
        'max_connections=400',
        '-c',
        'wal_level=replica',
        '-c',
        'max_wal_senders=10',
        '-c',
        'wal_keep_size=256MB',
      ],
      volumes: ['pgdata:/var/lib/postgresql/data', './initdb:/docker-entrypoint-initdb.d:ro'],
      healthcheck: {
        test: ['CMD', 'pg_isready', '-h', '127.0.0.1', '-U', 'postgres'],
        interval: '2s',
        retries: 30,
      },
    },
    'postgres-standby': {
      image: 'fleetgraph/postgres',
      restart: 'unless-stopped',
      environment: {
        POSTGRES_PRIMARY_HOST: 'postgres',
        POSTGRES_REPLICATION_USER: 'replicator',
        POSTGRES_REPLICATION_PASSWORD: ref('POSTGRES_REPLICATION_PASSWORD'),
      },
      // A standby's max_connections may not be below its primary's.
      command: [
        'postgres',
        '-c',
        'hot_standby=on',
        '-c',
        'max_connections=400',
        '-c',
        'hot_standby_feedback=on',
      ],
      volumes: ['pgstandby:/var/lib/postgresql/data'],
      depends_on: { postgres: { condition: 'service_healthy' } },
      healthcheck: {
        test: ['CMD', 'pg_isready', '-h', '127.0.0.1', '-U', 'postgres'],
        interval: '2s',
        retries: 60,
      },
    },
    redis: {
      image: 'fleetgraph/redis',
      restart: 'unless-stopped',
      command: ['redis-server', '--protected-mode', 'no', '--save', '', '--appendonly', 'no'],
    },
    prepare: {
      image: PLATFORM_IMAGE,
      command: ['node', 'dist/prepare/main.js'],
      restart: 'no',
      environment: {
        // The demo data is written through each subgraph's own code, which reads its environment.
        ...sharedEnv('prepare'),
        ...Object.assign({}, ...manifests.map(subgraphEnv)),
        DATABASE_MIGRATIONS: 'run',
        DATABASE_READ_URL: `postgres://postgres:${ref('POSTGRES_PASSWORD')}@postgres:5432/postgres`,
        DATABASE_URL: `postgres://postgres:${ref('POSTGRES_PASSWORD')}@postgres:5432/postgres`,
        DATABASE_ROLES: 'per-app',
        SSO_KEY_ENCRYPTION_KEY: ref('SSO_KEY_ENCRYPTION_KEY'),
        EXPLORER_CLIENT_ID: 'fleetgraph-explorer',
        EXPLORER_CLIENT_SECRET: ref('EXPLORER_CLIENT_SECRET'),
        EXPLORER_PUBLIC_URL: `http://localhost:${GATEWAY_PORT}`,
        ...Object.fromEntries(
          ['sso', 'gateway', ...manifests.map((m) => m.name)].map((app) => [
            rolePasswordVariable(app),
            ref(rolePasswordVariable(app)),
          ]),
        ),
      },
      volumes: [`files:${FILES_ROOT}`],
      depends_on: { postgres: { condition: 'service_healthy' } },
    },
  };
  for (let i = 1; i <= REPLICAS; i++) {
    services[instanceName('sso', i)] = appService('sso', 'sso', SSO_PORT, {
      SSO_PORT: String(SSO_PORT),
      SSO_KEY_ENCRYPTION_KEY: ref('SSO_KEY_ENCRYPTION_KEY'),
      // HAProxy is the one proxy in front: the client's address is its X-Forwarded-For entry.
      SSO_TRUST_PROXY_HOPS: '1',
    });
  }
  for (const m of manifests)
    for (let i = 1; i <= REPLICAS; i++)
      services[instanceName(m.name, i)] = {
        ...appService(m.name, m.name, m.port, { [`${m.envPrefix}_PORT`]: String(m.port), ...subgraphEnv(m) }),
        volumes: [`files:${FILES_ROOT}`],
      };
  for (let i = 1; i <= REPLICAS; i++)
    services[instanceName('gateway', i)] = appService('gateway', 'gateway', GATEWAY_PORT, {
      GATEWAY_PORT: String(GATEWAY_PORT),
      ...Object.fromEntries(
        manifests.map((m) => [subgraphUrlVariable(m.name), `http://haproxy:${m.port}/graphql`]),
      ),
      EXPLORER_CLIENT_ID: 'fleetgraph-explorer',
      EXPLORER_CLIENT_SECRET: ref('EXPLORER_CLIENT_SECRET'),
      EXPLORER_SESSION_SECRET: ref('EXPLORER_SESSION_SECRET'),
      EXPLORER_PUBLIC_URL: `http://localhost:${GATEWAY_PORT}`,
    });
  services.haproxy = {
    image: 'fleetgraph/haproxy',
    restart: 'unless-stopped',
    volumes: ['./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro'],
    ports: [
      `${GATEWAY_PORT}:${GATEWAY_PORT}`,
      `${SSO_PORT}:${SSO_PORT}`,
      `127.0.0.1:${HAPROXY_STATS_PORT}:${HAPROXY_STATS_PORT}`,
      // Each subgraph's replicas, for direct calls from this machine (they need the shared secret).
      ...manifests.map((m) => `127.0.0.1:${m.port}:${m.port}`),
    ],
    // Started with the first replicas: servers not up yet are marked down by the health checks.
    depends_on: ['prepare'],
  };
  const header = [
    '# Rendered by tools/containers from the subgraph manifests: `npm run containers -- render`.',
    '# Do not edit; `npm run containers -- up` starts it with the secrets of deploy/containers/.env.',
    '',
  ].join('\n');
  return `${header}${dump(
    { version: '2.4', services, volumes: { pgdata: {}, pgstandby: {}, files: {} } },
    { lineWidth: -1, noRefs: true },
  )}`;
}

/** The balanced services: the gateway, the SSO, then each subgraph. */
export function balancedServices(manifests: Manifest[]): Balanced[] {
  return [
    { name: 'gateway', port: GATEWAY_PORT },
    { name: 'sso', port: SSO_PORT },
    ...manifests.map((m) => ({ name: m.name, port: m.port })),
  ];
}

export function renderHaproxy(manifests: Manifest[]): string {
  const lines = [
    '# Rendered by tools/containers from the subgraph manifests: `npm run containers -- render`.',
    'global',
    '  maxconn 4096',
    '',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout http-keep-alive 10s',
    '  option forwardfor',
    '  option http-server-close',
    // A request a dying replica did not answer goes to its sibling: GraphQL reads are safe to retry,
    // and the SSO's requests are retried only when the replica never got them.
    '  retries 3',
    '  option redispatch 1',
    '  option httpchk GET /healthz',
    '  http-check expect status 200',
    // Docker's DNS: a replica restarted with a new address is found again.
    '  default-server inter 1s fall 2 rise 2 resolvers docker init-addr last,libc,none',
    '',
    'resolvers docker',
    '  nameserver dns 127.0.0.11:53',
    '  hold valid 1s',
    '',
    'frontend stats',
    `  bind :${HAPROXY_STATS_PORT}`,
    '  stats enable',
    '  stats uri /stats',
    '  stats refresh 5s',
    '',
  ];
  for (const { name, port } of balancedServices(manifests)) {
    lines.push(
      `frontend ${name}`,
      `  bind :${port}`,
      `  default_backend ${name}`,
      '',
      `backend ${name}`,
      '  balance roundrobin',
      name === 'sso' ? '  retry-on conn-failure empty-response' : '  retry-on all-retryable-errors',
      '  http-response set-header X-Fleetgraph-Instance %s',
    );
    for (let i = 1; i <= REPLICAS; i++)
      lines.push(`  server ${instanceName(name, i)} ${instanceName(name, i)}:${port} check`);
    lines.push('');
  }
  return `${lines.join('\n')}`;
}

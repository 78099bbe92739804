/**
 * The Kubernetes objects of the platform, from the subgraph manifests: the gateway, the SSO, one
 * set of objects per subgraph (Deployment, Service, PodDisruptionBudget, HorizontalPodAutoscaler,
 * NetworkPolicy) and the prepare Job (migrations, the SSO's first key, demo data). A subgraph
 * added under apps/ gets its objects from its manifest alone: name, port, envPrefix, secrets.
 *
 * Every service runs the one image `fleetgraph/platform` as `node dist/<app>/main.js`, non-root,
 * on a read-only root filesystem (a memory-backed /tmp and a scratch data folder), probed on
 * /healthz (alive) and /readyz (ready). Secret values never appear here: every secret is a
 * secretKeyRef to a Secret the operator creates (secrets.example.yaml shows them all).
 */
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IEnvVar } from 'kubernetes-models/v1/EnvVar';
import type { INamespace } from 'kubernetes-models/v1/Namespace';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import type { IService } from 'kubernetes-models/v1/Service';
import { subgraphUrlVariable, type SubgraphManifest } from '@fleetgraph/subgraph-kit';

/** What the renderer reads of a subgraph: its manifest's deployment facts and its Nx project name. */
export interface DeployedSubgraph {
  manifest: Pick<SubgraphManifest, 'name' | 'port' | 'envPrefix' | 'secrets'>;
  /** The app folder under dist/ (`node dist/<project>/main.js`). */
  project: string;
}

export interface RenderOptions {
  /** Image tag of `fleetgraph/platform` (kustomization's `images` changes it in one place). */
  tag: string;
  /** Namespace of the kustomization. */
  namespace?: string;
}

/**
 * The objects the renderer writes, typed by kubernetes-models so that a field the API does not
 * have fails the typecheck (the schemas' runtime validation accepts unknown fields).
 */
export type K8sObject =
  | INamespace
  | IConfigMap
  | ISecret
  | IService
  | IDeployment
  | IJob
  | IPodDisruptionBudget
  | IHorizontalPodAutoscaler
  | INetworkPolicy;

/** One rendered file: its name under deploy/kubernetes and its objects, in order. */
export interface RenderedFile {
  file: string;
  objects: K8sObject[];
  /** Listed in kustomization.yaml (secrets.example.yaml is not: it holds placeholders). */
  kustomize: boolean;
  /** First lines of the file, as YAML comments. */
  header: string[];
}

export const IMAGE = 'fleetgraph/platform';
export const GATEWAY_PORT = 4000;
export const SSO_PORT = 4100;
/** Non-root user and group the containers run as (numeric, so runAsNonRoot can be checked). */
export const RUN_AS = 10001;

/** Secret names (the operator creates them; secrets.example.yaml lists every key). */
export const SECRETS = {
  /** Connection URLs: `<app>-url` (primary), `<subgraph>-read-url` (standby), `prepare-url` (admin). */
  database: 'fleetgraph-database',
  /** PAGING_SECRET, SUBGRAPH_SHARED_SECRET, REDIS_URL. */
  platform: 'fleetgraph-platform',
  /** SSO_KEY_ENCRYPTION_KEY. */
  sso: 'fleetgraph-sso',
  /** METRICS_TOKEN, EXPLORER_CLIENT_ID, EXPLORER_CLIENT_SECRET, EXPLORER_SESSION_SECRET (all optional). */
  gateway: 'fleetgraph-gateway',
  /** A subgraph's own secrets (its manifest's `secrets`), by variable name. */
  subgraph: (name: string) => `fleetgraph-${name}`,
} as const;

/** Settings every service reads, not secret (SSO_ISSUER: the SSO's public address). */
export const SETTINGS = 'fleetgraph-settings';

const PART_OF = 'fleetgraph';
const labelsOf = (name: string, component: string) => ({
  'app.kubernetes.io/name': name,
  'app.kubernetes.io/component': component,
  'app.kubernetes.io/part-of': PART_OF,
});
const selectorOf = (name: string) => ({
  'app.kubernetes.io/name': name,
  'app.kubernetes.io/part-of': PART_OF,
});

type EnvVar = IEnvVar;

const value = (name: string, text: string | number): EnvVar => ({ name, value: String(text) });
const secret = (name: string, secretName: string, key: string, optional = false): EnvVar => ({
  name,
  valueFrom: { secretKeyRef: { name: secretName, key, ...(optional ? { optional: true } : {}) } },
});

interface ServiceSpec {
  name: string;
  component: 'gateway' | 'sso' | 'subgraph';
  /** dist/<app>/main.js */
  app: string;
  port: number;
  env: EnvVar[];
  replicas: number;
  resources: { requests: { cpu: string; memory: string }; limits: { cpu: string; memory: string } };
  autoscale?: { min: number; max: number };
}

/** The pod every service and the Job share: non-root, read-only root, no service account token. */
function podSpec(
  image: string,
  container: Omit<IContainer, 'image' | 'securityContext' | 'volumeMounts'>,
  extra: Omit<IPodSpec, 'containers'> = {},
): IPodSpec {
  return {
    automountServiceAccountToken: false,
    // Service links would set SSO_PORT=tcp://..., GATEWAY_PORT, FLEET_CORE_PORT...: the very
    // names the services read their ports from.
    enableServiceLinks: false,
    securityContext: {
      runAsNonRoot: true,
      runAsUser: RUN_AS,
      runAsGroup: RUN_AS,
      fsGroup: RUN_AS,
      seccompProfile: { type: 'RuntimeDefault' },
    },
    ...extra,
    containers: [
      {
        image,
        imagePullPolicy: 'IfNotPresent',
        ...container,
        securityContext: {
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        },
        volumeMounts: [
          { name: 'tmp', mountPath: '/tmp' },
          { name: 'data', mountPath: '/data' },
        ],
      },
    ],
    volumes: [
      { name: 'tmp', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } },
      // The data folder (FLEETGRAPH_DATA_DIR): what a service unpacks at start (vehicle-data's
      // vPIC database). Scratch only: the platform's state is in PostgreSQL and Redis.
      { name: 'data', emptyDir: { sizeLimit: '512Mi' } },
    ],
  };
}

/** Environment every service shares. */
function commonEnv(): EnvVar[] {
  return [
    value('NODE_ENV', 'production'),
    value('HOST', '0.0.0.0'),
    value('FLEETGRAPH_DATA_DIR', '/data'),
    // The one-shot prepare Job migrates; services wait until the schema is there.
    value('DATABASE_MIGRATIONS', 'wait'),
  ];
}

const ssoJwks = `http://sso:${SSO_PORT}/.well-known/jwks.json`;

function deployment(spec: ServiceSpec, image: string): IDeployment {
  const probe = (path: string, periodSeconds: number, failureThreshold: number) => ({
    httpGet: { path, port: 'http' },
    periodSeconds,
    timeoutSeconds: 2,
    failureThreshold,
  });
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: spec.name, labels: labelsOf(spec.name, spec.component) },
    spec: {
      replicas: spec.replicas,
      revisionHistoryLimit: 5,
      selector: { matchLabels: selectorOf(spec.name) },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } },
      template: {
        metadata: { labels: labelsOf(spec.name, spec.component) },
        spec: podSpec(
          image,
          {
            name: spec.name,
            command: ['node', `dist/${spec.app}/main.js`],
            ports: [{ name: 'http', containerPort: spec.port, protocol: 'TCP' }],
            env: spec.env,
            envFrom: [
              { configMapRef: { name: SETTINGS } },
              // Any other setting of this service (for example dvir's DVIR_S3_* storage): plain
              // values in a ConfigMap, secret ones in a Secret, both named <service>-settings.
              { configMapRef: { name: `${spec.name}-settings`, optional: true } },
              { secretRef: { name: `${spec.name}-settings`, optional: true } },
            ],
            resources: spec.resources,
            // Waiting for the prepare Job's migrations counts as starting, not as hanging.
            startupProbe: probe('/healthz', 5, 60),
            livenessProbe: probe('/healthz', 10, 3),
            readinessProbe: probe('/readyz', 5, 2),
          },
          {
            terminationGracePeriodSeconds: 30,
            topologySpreadConstraints: [
              {
                maxSkew: 1,
                topologyKey: 'kubernetes.io/hostname',
                whenUnsatisfiable: 'ScheduleAnyway',
                labelSelector: { matchLabels: selectorOf(spec.name) },
              },
            ],
          },
        ),
      },
    },
  };
}

function service(spec: ServiceSpec): IService {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: spec.name, labels: labelsOf(spec.name, spec.component) },
    spec: {
      type: 'ClusterIP',
      selector: selectorOf(spec.name),
      ports: [{ name: 'http', port: spec.port, targetPort: 'http', protocol: 'TCP' }],
    },
  };
}

function disruptionBudget(spec: ServiceSpec): IPodDisruptionBudget {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: spec.name, labels: labelsOf(spec.name, spec.component) },
    spec: { maxUnavailable: 1, selector: { matchLabels: selectorOf(spec.name) } },
  };
}

function autoscaler(spec: ServiceSpec, scale: { min: number; max: number }): IHorizontalPodAutoscaler {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: spec.name, labels: labelsOf(spec.name, spec.component) },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: spec.name },
      minReplicas: scale.min,
      maxReplicas: scale.max,
      metrics: [
        {
          type: 'Resource',
          resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
        },
      ],
      behavior: { scaleDown: { stabilizationWindowSeconds: 300 } },
    },
  };
}

/** Only the gateway reaches a subgraph (the kubelet's probes come from the node, not a pod). */
function gatewayOnly(spec: ServiceSpec): INetworkPolicy {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: `${spec.name}-from-gateway-only`, labels: labelsOf(spec.name, spec.component) },
    spec: {
      podSelector: { matchLabels: selectorOf(spec.name) },
      policyTypes: ['Ingress'],
      ingress: [
        {
          from: [{ podSelector: { matchLabels: selectorOf('gateway') } }],
          ports: [{ protocol: 'TCP', port: spec.port }],
        },
      ],
    },
  };
}

function objectsOf(spec: ServiceSpec, image: string): K8sObject[] {
  return [
    deployment(spec, image),
    service(spec),
    disruptionBudget(spec),
    ...(spec.autoscale ? [autoscaler(spec, spec.autoscale)] : []),
    ...(spec.component === 'subgraph' ? [gatewayOnly(spec)] : []),
  ];
}

const SUBGRAPH_RESOURCES = {
  requests: { cpu: '100m', memory: '256Mi' },
  limits: { cpu: '1', memory: '1Gi' },
};

function gatewaySpec(subgraphs: DeployedSubgraph[]): ServiceSpec {
  return {
    name: 'gateway',
    component: 'gateway',
    app: 'gateway',
    port: GATEWAY_PORT,
    replicas: 2,
    autoscale: { min: 2, max: 10 },
    resources: { requests: { cpu: '250m', memory: '384Mi' }, limits: { cpu: '2', memory: '1Gi' } },
    env: [
      ...commonEnv(),
      value('GATEWAY_PORT', GATEWAY_PORT),
      value('SSO_JWKS_URL', ssoJwks),
      // The supergraph is part of the image: no file to watch.
      value('SUPERGRAPH_WATCH', 'false'),
      ...subgraphs.map(({ manifest }) =>
        value(subgraphUrlVariable(manifest.name), `http://${manifest.name}:${manifest.port}/graphql`),
      ),
      secret('SUBGRAPH_SHARED_SECRET', SECRETS.platform, 'SUBGRAPH_SHARED_SECRET'),
      secret('REDIS_URL', SECRETS.platform, 'REDIS_URL'),
      // Revocations are followed with LISTEN, which only the primary answers.
      secret('DATABASE_URL', SECRETS.database, 'gateway-url'),
      secret('METRICS_TOKEN', SECRETS.gateway, 'METRICS_TOKEN', true),
      secret('EXPLORER_CLIENT_ID', SECRETS.gateway, 'EXPLORER_CLIENT_ID', true),
      secret('EXPLORER_CLIENT_SECRET', SECRETS.gateway, 'EXPLORER_CLIENT_SECRET', true),
      secret('EXPLORER_SESSION_SECRET', SECRETS.gateway, 'EXPLORER_SESSION_SECRET', true),
    ],
  };
}

function ssoSpec(): ServiceSpec {
  return {
    name: 'sso',
    component: 'sso',
    app: 'sso',
    port: SSO_PORT,
    replicas: 2,
    // Password hashing (argon2) is the SSO's CPU.
    resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { cpu: '2', memory: '768Mi' } },
    env: [
      ...commonEnv(),
      value('SSO_PORT', SSO_PORT),
      secret('DATABASE_URL', SECRETS.database, 'sso-url'),
      secret('REDIS_URL', SECRETS.platform, 'REDIS_URL'),
      secret('SSO_KEY_ENCRYPTION_KEY', SECRETS.sso, 'SSO_KEY_ENCRYPTION_KEY'),
    ],
  };
}

function subgraphSpec({ manifest, project }: DeployedSubgraph): ServiceSpec {
  return {
    name: manifest.name,
    component: 'subgraph',
    app: project,
    port: manifest.port,
    replicas: 2,
    autoscale: { min: 2, max: 8 },
    resources: SUBGRAPH_RESOURCES,
    env: [
      ...commonEnv(),
      value(`${manifest.envPrefix}_PORT`, manifest.port),
      value('SSO_JWKS_URL', ssoJwks),
      secret('DATABASE_URL', SECRETS.database, `${manifest.name}-url`),
      // Reads go to the standby (docs/operations.md, "Reads from a standby").
      secret('DATABASE_READ_URL', SECRETS.database, `${manifest.name}-read-url`),
      secret('PAGING_SECRET', SECRETS.platform, 'PAGING_SECRET'),
      secret('SUBGRAPH_SHARED_SECRET', SECRETS.platform, 'SUBGRAPH_SHARED_SECRET'),
      secret('REDIS_URL', SECRETS.platform, 'REDIS_URL'),
      ...Object.keys(manifest.secrets ?? {})
        .sort()
        .map((variable) => secret(variable, SECRETS.subgraph(manifest.name), variable)),
    ],
  };
}

/** Migrations, the SSO's first signing key and the demo data, once, before the services serve. */
function prepareJob(image: string): IJob {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'prepare', labels: labelsOf('prepare', 'prepare') },
    spec: {
      backoffLimit: 6,
      // Gone an hour after it finished, so the next `kubectl apply -k` of a new version runs it again.
      ttlSecondsAfterFinished: 3600,
      template: {
        metadata: { labels: labelsOf('prepare', 'prepare') },
        spec: podSpec(
          image,
          {
            name: 'prepare',
            command: ['node', 'dist/prepare/main.js'],
            env: [
              value('NODE_ENV', 'production'),
              value('FLEETGRAPH_DATA_DIR', '/data'),
              secret('DATABASE_URL', SECRETS.database, 'prepare-url'),
              secret('SSO_KEY_ENCRYPTION_KEY', SECRETS.sso, 'SSO_KEY_ENCRYPTION_KEY'),
            ],
            envFrom: [{ configMapRef: { name: SETTINGS } }],
            resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { cpu: '2', memory: '1Gi' } },
          },
          { restartPolicy: 'Never' },
        ),
      },
    },
  };
}

function settings(): IConfigMap {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: SETTINGS, labels: { 'app.kubernetes.io/part-of': PART_OF } },
    data: {
      // The SSO's address as clients (browsers, the gateway's token checks) know it.
      SSO_ISSUER: 'https://sso.fleetgraph.example',
      TOKEN_AUDIENCE: 'fleetgraph',
      LOG_LEVEL: 'info',
    },
  };
}

const PLACEHOLDER = 'change-me';

/** Every Secret the objects reference, with placeholder values (secrets.example.yaml). */
function exampleSecrets(subgraphs: DeployedSubgraph[]): K8sObject[] {
  const database: Record<string, string> = {
    'prepare-url': 'postgres://fleetgraph_admin:change-me@primary.postgres.example:5432/fleetgraph',
    'gateway-url': 'postgres://fleetgraph_gateway:change-me@primary.postgres.example:5432/fleetgraph',
    'sso-url': 'postgres://fleetgraph_sso:change-me@primary.postgres.example:5432/fleetgraph',
  };
  for (const { manifest } of subgraphs) {
    const role = `fleetgraph_${manifest.name.replace(/-/g, '_')}`;
    database[`${manifest.name}-url`] =
      `postgres://${role}:change-me@primary.postgres.example:5432/fleetgraph`;
    database[`${manifest.name}-read-url`] =
      `postgres://${role}:change-me@standby.postgres.example:5432/fleetgraph`;
  }
  const opaque = (name: string, stringData: Record<string, string>): ISecret => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, labels: { 'app.kubernetes.io/part-of': PART_OF } },
    type: 'Opaque',
    stringData,
  });
  return [
    opaque(SECRETS.database, database),
    opaque(SECRETS.platform, {
      PAGING_SECRET: PLACEHOLDER,
      SUBGRAPH_SHARED_SECRET: PLACEHOLDER,
      REDIS_URL: 'rediss://:change-me@redis.example:6380',
    }),
    opaque(SECRETS.sso, { SSO_KEY_ENCRYPTION_KEY: PLACEHOLDER }),
    opaque(SECRETS.gateway, { METRICS_TOKEN: PLACEHOLDER }),
    ...subgraphs
      .filter(({ manifest }) => Object.keys(manifest.secrets ?? {}).length > 0)
      .map(({ manifest }) =>
        opaque(
          SECRETS.subgraph(manifest.name),
          Object.fromEntries(
            Object.keys(manifest.secrets ?? {})
              .sort()
              .map((variable) => [variable, PLACEHOLDER]),
          ),
        ),
      ),
  ];
}

const RENDERED =
  'Rendered by `npm run deploy:render` from the subgraph manifests (tools/deploy): do not edit.';

/** Every file of deploy/kubernetes but kustomization.yaml, in order. */
export function renderFiles(subgraphs: DeployedSubgraph[], options: RenderOptions): RenderedFile[] {
  const image = `${IMAGE}:${options.tag}`;
  const sorted = [...subgraphs].sort((a, b) => a.manifest.name.localeCompare(b.manifest.name));
  const file = (name: string, objects: K8sObject[], header: string[] = [], kustomize = true) => ({
    file: name,
    objects,
    kustomize,
    header: [RENDERED, ...header],
  });
  const namespace: INamespace = {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: options.namespace ?? 'fleetgraph', labels: { 'app.kubernetes.io/part-of': PART_OF } },
  };
  return [
    file('namespace.yaml', [namespace]),
    file('settings.yaml', [settings()], ['Set SSO_ISSUER to the address clients reach the SSO at.']),
    file(
      'prepare-job.yaml',
      [prepareJob(image)],
      ['Migrations, the first signing key and the demo data, once.'],
    ),
    file('sso.yaml', objectsOf(ssoSpec(), image)),
    file('gateway.yaml', objectsOf(gatewaySpec(sorted), image)),
    ...sorted.map((subgraph) =>
      file(`subgraph-${subgraph.manifest.name}.yaml`, objectsOf(subgraphSpec(subgraph), image)),
    ),
    file(
      'secrets.example.yaml',
      exampleSecrets(sorted),
      [
        'Every Secret the objects reference, with placeholder values: NOT part of kustomization.yaml.',
        'Make the real ones with `kubectl create secret generic` (docs/operations.md, "Kubernetes").',
      ],
      false,
    ),
  ];
}

/** kustomization.yaml: the files to apply, the namespace, the image tag in one place. */
export function kustomization(files: RenderedFile[], options: RenderOptions): Record<string, unknown> {
  return {
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    namespace: options.namespace ?? 'fleetgraph',
    resources: files.filter((f) => f.kustomize).map((f) => f.file),
    images: [{ name: IMAGE, newTag: options.tag }],
  };
}

/**
 * deploy/kubernetes: every object valid against the Kubernetes API schemas (kubernetes-models,
 * offline), the committed files what the manifests render, and the properties the platform relies
 * on (replicas, probes, limits, non-root, secrets by reference, only the gateway reaching a subgraph).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { before, describe, test } from 'node:test';
import { loadAll } from 'js-yaml';
import { ConfigMap, Namespace, Secret, Service } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { loadGatewayConfig } from '@fleetgraph/gateway';
import { loadSsoConfig } from '@fleetgraph/sso';
import { subgraphUrlVariable } from '@fleetgraph/subgraph-kit';
import { loadSubgraphUnits, type SubgraphUnit } from '@fleetgraph/subgraphs';
import type { DeployedSubgraph } from './kubernetes';
import { deployDir, renderKubernetes, staleFiles, workspaceTag } from './render';

type Doc = Record<string, any>;

/** The model class of each kind the renderer may write; any other kind fails the test. */
const MODELS: Record<string, new (data: any) => { validate(): void }> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
};

/** Whether kubectl (with its kustomize) is installed here. */
function kubectl(): boolean {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

let units: SubgraphUnit[];
let subgraphs: DeployedSubgraph[];
let rendered: Map<string, string>;
/** Every object of every rendered file, parsed back from its YAML text. */
let objects: Array<{ file: string; doc: Doc }>;

const parse = (files: Map<string, string>) =>
  [...files].flatMap(([file, text]) => (loadAll(text) as Doc[]).map((doc) => ({ file, doc })));
const find = (kind: string, name: string, from = objects) =>
  from.find(({ doc }) => doc.kind === kind && doc.metadata?.name === name)?.doc;
const containerOf = (doc: Doc) => doc.spec.template.spec.containers[0];
const envOf = (doc: Doc): Doc[] => containerOf(doc).env;

before(async () => {
  units = await loadSubgraphUnits();
  subgraphs = units.map((unit) => ({ manifest: unit.manifest, project: unit.project.project }));
  rendered = await renderKubernetes(subgraphs, { tag: workspaceTag() });
  objects = parse(rendered);
});

describe('deploy/kubernetes', () => {
  test('every rendered object is valid against the Kubernetes API schemas', () => {
    assert.ok(objects.length > 0);
    for (const { file, doc } of objects) {
      if (doc.kind === 'Kustomization') continue;
      const Model = MODELS[`${doc.apiVersion}/${doc.kind}`];
      assert.ok(Model, `${file}: no schema known for ${doc.apiVersion} ${doc.kind}`);
      assert.doesNotThrow(() => new Model(doc).validate(), `${file}: ${doc.kind} ${doc.metadata?.name}`);
    }
  });

  test('the schemas do catch a mistake (the validation is live)', () => {
    const gateway = structuredClone(find('Deployment', 'gateway')!);
    containerOf(gateway).ports[0].containerPort = 'http';
    assert.throws(() => new Deployment(gateway as never).validate(), /containerPort/);
    const budget = structuredClone(find('PodDisruptionBudget', 'gateway')!);
    budget.spec.selector = 'gateway';
    assert.throws(() => new PodDisruptionBudget(budget as never).validate());
  });

  test('the committed files are what the manifests render (`npm run deploy:render` when not)', () => {
    assert.deepEqual(staleFiles(rendered, deployDir()), []);
  });

  test('kustomization.yaml applies every file but the example secrets, with the image tag in one place', () => {
    const kustomization = objects.find(({ file }) => file === 'kustomization.yaml')!.doc;
    const files = [...rendered.keys()].filter(
      (f) => f !== 'kustomization.yaml' && f !== 'secrets.example.yaml',
    );
    assert.deepEqual([...kustomization.resources].sort(), files.sort());
    assert.deepEqual(kustomization.images, [{ name: 'fleetgraph/platform', newTag: workspaceTag() }]);
    const applied = objects.filter(({ file }) => kustomization.resources.includes(file));
    assert.equal(applied.filter(({ doc }) => doc.kind === 'Secret').length, 0, 'no Secret is applied');
  });

  test(
    'kustomize builds the folder into the objects of the files it lists',
    { skip: !kubectl() && 'no kubectl' },
    () => {
      const built = (
        loadAll(execFileSync('kubectl', ['kustomize', deployDir()], { encoding: 'utf8' })) as Doc[]
      ).filter(Boolean);
      const kustomization = objects.find(({ file }) => file === 'kustomization.yaml')!.doc;
      const listed = objects.filter(({ file }) => kustomization.resources.includes(file));
      assert.equal(built.length, listed.length);
      for (const doc of built) {
        if (doc.kind !== 'Namespace')
          assert.equal(doc.metadata.namespace, 'fleetgraph', `${doc.kind} ${doc.metadata.name}`);
        for (const container of doc.spec?.template?.spec?.containers ?? [])
          assert.equal(container.image, `fleetgraph/platform:${workspaceTag()}`);
      }
    },
  );

  test('a Deployment, Service and PodDisruptionBudget per service; autoscalers for the gateway and every subgraph', () => {
    const services = ['gateway', 'sso', ...units.map((u) => u.manifest.name)];
    for (const name of services) {
      for (const kind of ['Deployment', 'Service', 'PodDisruptionBudget'])
        assert.ok(find(kind, name), `${kind} ${name}`);
      assert.ok((find('Deployment', name)!.spec.replicas as number) >= 2, `${name}: at least 2 replicas`);
    }
    for (const name of ['gateway', ...units.map((u) => u.manifest.name)]) {
      const hpa = find('HorizontalPodAutoscaler', name)!;
      assert.ok(hpa, `HorizontalPodAutoscaler ${name}`);
      assert.ok(hpa.spec.minReplicas >= 2);
      assert.deepEqual(hpa.spec.scaleTargetRef, { apiVersion: 'apps/v1', kind: 'Deployment', name });
    }
    for (const unit of units) {
      const deployment = find('Deployment', unit.manifest.name)!;
      assert.deepEqual(containerOf(deployment).command, ['node', `dist/${unit.project.project}/main.js`]);
      assert.equal(containerOf(deployment).ports[0].containerPort, unit.manifest.port);
      assert.equal(find('Service', unit.manifest.name)!.spec.ports[0].port, unit.manifest.port);
    }
  });

  test('every pod: probes on /healthz and /readyz, requests and limits, non-root, read-only root with a /tmp', () => {
    const pods = objects.filter(({ doc }) => doc.kind === 'Deployment' || doc.kind === 'Job');
    assert.ok(pods.length >= 3);
    for (const { doc } of pods) {
      const name = `${doc.kind} ${doc.metadata.name}`;
      const pod = doc.spec.template.spec;
      const container = containerOf(doc);
      assert.match(container.image, /^fleetgraph\/platform:/, name);
      assert.equal(pod.securityContext.runAsNonRoot, true, name);
      assert.equal(pod.enableServiceLinks, false, `${name}: no SERVICE_PORT=tcp://... in the environment`);
      assert.ok(pod.securityContext.runAsUser > 0, name);
      assert.equal(container.securityContext.readOnlyRootFilesystem, true, name);
      assert.equal(container.securityContext.allowPrivilegeEscalation, false, name);
      const tmp = container.volumeMounts.find((m: Doc) => m.mountPath === '/tmp');
      assert.ok(pod.volumes.find((v: Doc) => v.name === tmp.name).emptyDir, `${name}: /tmp is an emptyDir`);
      for (const kind of ['requests', 'limits'])
        assert.ok(container.resources[kind].cpu && container.resources[kind].memory, `${name}: ${kind}`);
      if (doc.kind === 'Job') {
        assert.deepEqual(container.command, ['node', 'dist/prepare/main.js']);
        continue;
      }
      assert.equal(container.livenessProbe.httpGet.path, '/healthz', name);
      assert.equal(container.readinessProbe.httpGet.path, '/readyz', name);
      assert.ok(
        envOf(doc).some((e) => e.name === 'DATABASE_MIGRATIONS' && e.value === 'wait'),
        name,
      );
    }
  });

  test('secrets are referenced from Secret objects, never written inline', () => {
    const SECRET_NAME = /SECRET|_KEY|TOKEN|PASSWORD|DATABASE_URL|DATABASE_READ_URL|REDIS_URL|CLIENT_ID/;
    for (const { doc } of objects.filter(({ doc }) => doc.kind === 'Deployment' || doc.kind === 'Job'))
      for (const variable of envOf(doc)) {
        if (SECRET_NAME.test(variable.name))
          assert.ok(variable.valueFrom?.secretKeyRef, `${doc.metadata.name}: ${variable.name} from a Secret`);
        if (variable.value !== undefined)
          assert.doesNotMatch(variable.value, /:\/\/[^/]*@/, `${doc.metadata.name}: no credentials in a URL`);
      }
    // Every key referenced is in secrets.example.yaml (which documents what to create).
    const examples = objects.filter(({ file }) => file === 'secrets.example.yaml').map(({ doc }) => doc);
    for (const { doc } of objects.filter(({ doc }) => doc.kind === 'Deployment' || doc.kind === 'Job'))
      for (const variable of envOf(doc)) {
        const ref = variable.valueFrom?.secretKeyRef;
        if (!ref || ref.optional) continue;
        const example = examples.find((s) => s.metadata.name === ref.name);
        assert.ok(
          example?.stringData?.[ref.key] !== undefined,
          `secrets.example.yaml: ${ref.name}/${ref.key}`,
        );
      }
  });

  test('each subgraph is reached by the gateway only, at the address the gateway is given', () => {
    const gatewayEnv = envOf(find('Deployment', 'gateway')!);
    for (const { manifest } of units) {
      const policies = objects
        .map(({ doc }) => doc)
        .filter(
          (doc) =>
            doc.kind === 'NetworkPolicy' &&
            doc.spec.podSelector.matchLabels['app.kubernetes.io/name'] === manifest.name,
        );
      assert.equal(policies.length, 1, manifest.name);
      const [policy] = policies as [Doc];
      assert.deepEqual(policy.spec.policyTypes, ['Ingress']);
      const sources = policy.spec.ingress.flatMap((rule: Doc) => rule.from);
      assert.deepEqual(
        sources.map((s: Doc) => s.podSelector?.matchLabels?.['app.kubernetes.io/name']),
        ['gateway'],
        `${manifest.name}: only the gateway`,
      );
      const url = gatewayEnv.find((e) => e.name === subgraphUrlVariable(manifest.name));
      assert.equal(url?.value, `http://${manifest.name}:${manifest.port}/graphql`);
    }
  });

  test("each service's environment is one its config loader accepts (names as the apps read them)", () => {
    const settings = find('ConfigMap', 'fleetgraph-settings')!.data as Record<string, string>;
    const envFor = (name: string) => {
      const env: Record<string, string> = { ...settings };
      for (const variable of envOf(find('Deployment', name)!)) {
        if (variable.value !== undefined) env[variable.name] = variable.value;
        else if (!variable.valueFrom.secretKeyRef.optional)
          env[variable.name] = /_URL$/.test(variable.name)
            ? variable.name.startsWith('REDIS')
              ? 'redis://redis.example:6379'
              : 'postgres://app:pw@db.example:5432/fleetgraph'
            : 'a-secret-value-long-enough-for-any-check';
      }
      return env;
    };
    for (const { manifest } of units) {
      const config = manifest.loadConfig(envFor(manifest.name));
      assert.equal(config.port, manifest.port, manifest.name);
      assert.equal(config.host, '0.0.0.0');
      assert.ok(config.databaseReadUrl, `${manifest.name}: reads from the standby`);
      assert.ok(config.gatewaySecret, `${manifest.name}: answers the gateway only`);
    }
    const gateway = loadGatewayConfig(envFor('gateway'));
    assert.equal(gateway.port, 4000);
    assert.deepEqual(Object.keys(gateway.subgraphUrls).sort(), units.map((u) => u.manifest.name).sort());
    assert.equal(loadSsoConfig(envFor('sso')).port, 4100);
  });

  test('a new subgraph gets its objects from its manifest alone', async () => {
    const added: DeployedSubgraph = {
      manifest: {
        name: 'fuel-cards',
        port: 4010,
        envPrefix: 'FUEL_CARDS',
        secrets: { FUEL_CARDS_API_KEY: 'key of the card issuer' },
      },
      project: 'fuel-cards',
    };
    const files = await renderKubernetes([...subgraphs, added], { tag: 'next' });
    const docs = parse(files);
    assert.deepEqual(
      docs.filter(({ file }) => file === 'subgraph-fuel-cards.yaml').map(({ doc }) => doc.kind),
      ['Deployment', 'Service', 'PodDisruptionBudget', 'HorizontalPodAutoscaler', 'NetworkPolicy'],
    );
    const gateway = envOf(find('Deployment', 'gateway', docs)!);
    assert.equal(
      gateway.find((e) => e.name === 'SUBGRAPH_FUEL_CARDS_URL')?.value,
      'http://fuel-cards:4010/graphql',
    );
    const env = envOf(find('Deployment', 'fuel-cards', docs)!);
    assert.deepEqual(env.find((e) => e.name === 'FUEL_CARDS_API_KEY')?.valueFrom, {
      secretKeyRef: { name: 'fleetgraph-fuel-cards', key: 'FUEL_CARDS_API_KEY' },
    });
    assert.equal(env.find((e) => e.name === 'FUEL_CARDS_PORT')?.value, '4010');
    assert.ok(
      (loadAll(files.get('kustomization.yaml')!) as Doc[])[0]!.resources.includes('subgraph-fuel-cards.yaml'),
    );
    assert.equal(find('Secret', 'fleetgraph-fuel-cards', docs)?.stringData.FUEL_CARDS_API_KEY, 'change-me');
  });
});

/**
 * The files people read stay true to the manifests: docker-compose.yml runs every subgraph on its
 * port with its environment and routes the gateway to it; the README's table of services lists
 * every subgraph with its port, environment prefix and schema. Nothing here is listed by hand:
 * the expected values come from the manifests.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { load } from 'js-yaml';
import { repoRoot } from '@fleetgraph/service-kit';
import { subgraphUrlVariable } from '@fleetgraph/subgraph-kit';
import { loadSubgraphUnits } from '@fleetgraph/subgraphs';

const units = await loadSubgraphUnits();

interface ComposeService {
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: string[] | Record<string, unknown>;
}

const compose = load(readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8')) as {
  services: Record<string, ComposeService>;
};
const dependsOn = (service: ComposeService) =>
  Array.isArray(service.depends_on) ? service.depends_on : Object.keys(service.depends_on ?? {});

test('docker-compose.yml runs every subgraph from its main.ts, on its manifest port', () => {
  for (const { manifest, project } of units) {
    const service = compose.services[manifest.name];
    assert.ok(service, `docker-compose.yml has no service "${manifest.name}"`);
    // node itself (not the tsx CLI, whose signal relay SIGKILLs a child slow to acknowledge) gets
    // docker stop's SIGTERM and closes in order.
    assert.deepEqual(service.command, [
      'node',
      '--import',
      'tsx',
      `${relative(repoRoot, project.dir)}/src/main.ts`,
    ]);
    assert.equal(service.environment?.[`${manifest.envPrefix}_PORT`], String(manifest.port), manifest.name);
  }
});

test('the gateway of docker-compose.yml routes to every subgraph and waits for it', () => {
  const gateway = compose.services.gateway as ComposeService;
  const routes = Object.entries(gateway.environment ?? {}).filter(([key]) => /^SUBGRAPH_.*_URL$/.test(key));
  assert.deepEqual(
    Object.fromEntries(routes),
    Object.fromEntries(
      units.map(({ manifest: m }) => [subgraphUrlVariable(m.name), `http://${m.name}:${m.port}/graphql`]),
    ),
  );
  for (const { manifest } of units) assert.ok(dependsOn(gateway).includes(manifest.name), manifest.name);
});

/** The table of services of docs/architecture.md, as it must read (between the services markers). */
export function servicesTable(): string {
  const rows = units.map(
    ({ manifest: m, project }) =>
      `| ${m.name} | ${m.port} | \`${m.envPrefix}_\` | \`${m.dbSchema}\` | ${relative(repoRoot, project.dir)} |`,
  );
  return [
    '| Subgraph | Port | Environment prefix | PostgreSQL schema | Folder |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

test("docs/architecture.md's table of services lists every subgraph as its manifest declares it", () => {
  const readme = readFileSync(join(repoRoot, 'docs/architecture.md'), 'utf8');
  const match = /<!-- services:start -->\n([\s\S]*?)\n<!-- services:end -->/.exec(readme);
  assert.ok(match, 'docs/architecture.md has no <!-- services:start --> ... <!-- services:end --> section');
  assert.equal(
    match[1],
    servicesTable(),
    `replace the table in docs/architecture.md with:\n${servicesTable()}`,
  );
});

/**
 * The generator's promise, end to end, in a throwaway copy of the workspace: `nx g
 * @fleetgraph/tools:subgraph fuel-cards` writes one folder and nothing else; after linking the
 * package and composing, the new subgraph is in the supergraph, `npm start` starts it with the
 * rest, its example query answers through the gateway with a token (the Vehicle it references
 * resolved by fleet-core), its generated test passes and it typechecks.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { repoRoot } from '@fleetgraph/service-kit';
import { freePort } from '@fleetgraph/testing';
import { subgraphNames, subgraphFiles, nextPort } from './subgraph/files';
import { copyWorkspace, type WorkspaceCopy } from './testing/workspace-copy';

const run = promisify(execFile);
const NAME = 'fuel-cards';
let copy: WorkspaceCopy;

before(() => {
  copy = copyWorkspace(repoRoot);
});
after(() => copy?.remove());

/** path -> content hash of every file of the copy (its node_modules and Nx cache aside). */
function snapshot(dir: string, root = dir, out = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === '.nx' || entry === '.data') continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) snapshot(path, root, out);
    else out.set(relative(root, path), createHash('sha1').update(readFileSync(path)).digest('hex'));
  }
  return out;
}

/**
 * The environment of a command run in the copy: this one's, without the test runner's marker
 * (a nested `node --test` would otherwise report to this runner instead of printing its summary).
 */
function copyEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const { NODE_TEST_CONTEXT: _nested, ...env } = process.env;
  return { ...env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', ...extra };
}

const inCopy = (command: string, args: string[]) =>
  run(command, args, { cwd: copy.root, env: copyEnv(), maxBuffer: 64 * 1024 * 1024 });

test('names: dashes become PascalCase types, camelCase fields, an env prefix and a schema', () => {
  assert.deepEqual(subgraphNames('fuel-cards'), {
    name: 'fuel-cards',
    pascal: 'FuelCards',
    camel: 'fuelCards',
    envPrefix: 'FUEL_CARDS',
    schema: 'fuel_cards',
  });
  assert.throws(() => subgraphNames('Fuel_Cards'), /lower-case words joined by dashes/);
  assert.throws(() => subgraphNames('gateway'), /reserved/);
});

test('the next port is one above the highest port of the existing manifests', () => {
  assert.equal(nextPort(['  port: 4001,\n', 'x\n  port: 4006,\n']), 4007);
  assert.equal(nextPort([]), 4001);
});

test('every template token is replaced', () => {
  const files = subgraphFiles(join(repoRoot, 'tools/generators/files/subgraph'), {
    name: NAME,
    port: 4999,
    date: '20261123',
  });
  assert.ok(files.length > 10);
  for (const [path, content] of files) {
    assert.match(path, /^apps\/fuel-cards\//);
    assert.doesNotMatch(`${path}\n${content}`, /__[A-Za-z_]+__/, path);
  }
});

test(
  'nx g creates one folder that composes, starts with npm start, answers through the gateway and passes its own test',
  { timeout: 900_000 },
  async () => {
    const before = snapshot(copy.root);
    await inCopy('npx', ['nx', 'g', '@fleetgraph/tools:subgraph', NAME, '--no-interactive']);
    const afterGeneration = snapshot(copy.root);
    const changed = [...afterGeneration].filter(([path, hash]) => before.get(path) !== hash).map(([p]) => p);
    const removed = [...before.keys()].filter((path) => !afterGeneration.has(path));
    assert.deepEqual(removed, []);
    assert.ok(changed.length > 10, changed.join('\n'));
    assert.deepEqual(
      changed.filter((path) => !path.startsWith(`apps/${NAME}/`)),
      [],
      'nothing outside the new folder changes',
    );

    copy.linkPackage(join(copy.root, 'apps', NAME));
    await inCopy('npx', ['tsx', 'tools/compose/src/main.ts']);
    assert.match(
      readFileSync(join(copy.root, 'supergraph.graphql'), 'utf8'),
      /FUEL_CARDS.*name: "fuel-cards"/,
    );

    const generatedTest = await inCopy('npx', ['tsx', 'tools/test/src/run.ts', `apps/${NAME}`]);
    assert.match(generatedTest.stdout, /^4 passed, 0 failed/m, generatedTest.stdout);
    await inCopy('npx', ['tsc', '-p', `apps/${NAME}/tsconfig.json`, '--noEmit']);

    await withNpmStart(async (graphqlUrl, ssoUrl) => {
      const token = await login(ssoUrl);
      const response = await fetch(graphqlUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          query:
            '{ fuelCardsRecords(pageSize: 5) { count list { id label vehicle { id plate fuelCardsRecords(pageSize: 1) { count } } } } }',
        }),
      });
      const body = (await response.json()) as any;
      assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      const page = body.data.fuelCardsRecords;
      assert.ok(page.count > 0, 'the demo data of the new subgraph is there');
      assert.equal(page.list.length, 5);
      for (const record of page.list) {
        assert.ok(record.vehicle.plate, 'fleet-core resolves the referenced vehicle');
        assert.equal(record.vehicle.fuelCardsRecords.count, 3, 'the field added to Vehicle answers');
      }
    });
  },
);

/** `npm start` in the copy on free ports and a throwaway database; stopped with SIGINT after `use`. */
async function withNpmStart(use: (graphqlUrl: string, ssoUrl: string) => Promise<void>): Promise<void> {
  const database = await import('@fleetgraph/db').then((db) => db.createTestDatabase('generated_subgraph'));
  const gatewayPort = await freePort();
  const ssoPort = await freePort();
  const env: NodeJS.ProcessEnv = copyEnv({
    DATABASE_URL: database.url,
    GATEWAY_PORT: String(gatewayPort),
    SSO_PORT: String(ssoPort),
    FLEETGRAPH_DATA_DIR: join(copy.root, '.data'),
    LOG_LEVEL: 'warn',
  });
  // The copy's own manifests (the new subgraph among them) say which port variables to set.
  const { loadSubgraphManifests } = await import('@fleetgraph/subgraphs');
  for (const m of await loadSubgraphManifests(copy.root))
    env[`${m.envPrefix}_PORT`] = String(await freePort());
  const child = spawn('npm', ['start', '--silent'], {
    cwd: copy.root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await new Promise<void>((resolve, reject) => {
      const check = () => output.includes('Ctrl-C stops everything') && resolve();
      child.stdout!.on('data', check);
      void exited.then(() => reject(new Error(`npm start exited:\n${output}`)));
    });
    assert.match(
      output,
      /fuel-cards\s+http:\/\/127\.0\.0\.1:\d+\/graphql/,
      'the banner lists the new subgraph',
    );
    await use(`http://localhost:${gatewayPort}/graphql`, `http://localhost:${ssoPort}`);
  } finally {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGINT');
    await exited;
    await database.drop();
  }
}

async function login(ssoUrl: string): Promise<string> {
  const { DEMO_EMAIL, DEMO_PASSWORD } = await import('@fleetgraph/seed');
  const response = await fetch(`${ssoUrl}/oauth/token`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: DEMO_EMAIL, password: DEMO_PASSWORD }),
  });
  const body = (await response.json()) as { access_token?: string };
  assert.ok(body.access_token, JSON.stringify(body));
  return body.access_token;
}

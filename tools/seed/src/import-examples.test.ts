/**
 * docs/importing.md's examples import as written: the commands of its marked block run, in order,
 * through `npm run import` on an empty database, and every importer of every subgraph has one.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createKnex, createTestDatabase, type Knex, type TestDatabase } from '@fleetgraph/db';
import { repoRoot } from '@fleetgraph/service-kit';
import { loadSubgraphManifests } from '@fleetgraph/subgraphs';

const DOC = join(repoRoot, 'docs/importing.md');

/** The `npm run import -- ...` lines between the doc's import-examples markers. */
function documentedCommands(): string[][] {
  const text = readFileSync(DOC, 'utf8');
  const block = /<!-- import-examples:start -->([\s\S]*?)<!-- import-examples:end -->/.exec(text)?.[1];
  assert.ok(block, 'docs/importing.md has the import-examples block');
  return block
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('npm run import -- '))
    .map((line) => line.slice('npm run import -- '.length).split(/\s+/));
}

function run(args: string[], databaseUrl: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'import', '--', ...args], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: databaseUrl, INIT_CWD: repoRoot },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

let database: TestDatabase;
let knex: Knex;
before(async () => {
  database = await createTestDatabase('import_examples');
  knex = createKnex({ url: database.url });
});
after(async () => {
  await knex?.destroy();
  await database?.drop();
});

test('every importer of every subgraph has a documented example', async () => {
  const commands = documentedCommands();
  const documented = new Set(commands.filter((c) => c.length === 3).map(([name, kind]) => `${name} ${kind}`));
  for (const manifest of await loadSubgraphManifests())
    for (const kind of Object.keys(manifest.importers ?? {})) {
      if (manifest.name === 'fleet-core' && kind === 'dataset') continue; // the one-argument form
      assert.ok(
        documented.has(`${manifest.name} ${kind}`),
        `docs/importing.md has an example of ${manifest.name} ${kind}`,
      );
    }
  assert.ok(
    commands.some((c) => c.length === 1),
    'the fleet dataset example comes first',
  );
});

test('the documented examples import as written, in order, into an empty database', async () => {
  for (const args of documentedCommands()) {
    const { code, output } = await run(args, database.url);
    assert.equal(code, 0, `npm run import -- ${args.join(' ')}\n${output}`);
    assert.match(output, /^Imported /m, `npm run import -- ${args.join(' ')} says what it imported`);
  }
  const count = async (table: string) => Number((await knex(table).count('* as n'))[0]!.n);
  // The reports name their vehicles by VIN and by plate; both resolved to the fleet's vehicles.
  const reports = await knex('dvir.inspection_reports as r')
    .join('fleet_contract.vehicles_v1 as v', 'v.id', 'r.vehicle_id')
    .orderBy('v.plate')
    .pluck('v.plate');
  assert.deepEqual(reports, ['1-ABC-123', '1-EVB-402']);
  assert.equal(await count('maintenance.history'), 2);
  assert.equal(await count('mobility.late_positions'), 2);
  assert.equal(await count('geo.addresses'), 2);
});

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { loadSubgraphUnits } from '@fleetgraph/subgraphs';
import { shapeDeviations } from './subgraph/shape';
import { subgraphFiles } from './subgraph/files';
import { repoRoot } from '@fleetgraph/service-kit';

const TEMPLATES = join(repoRoot, 'tools/generators/files/subgraph');

test('every subgraph of the workspace has the shape the generator makes', async () => {
  const units = await loadSubgraphUnits();
  assert.ok(units.length >= 6, 'the subgraphs were found');
  for (const { project, manifest } of units)
    assert.deepEqual(
      shapeDeviations(project.dir, { hasImporters: Object.keys(manifest.importers ?? {}).length > 0 }),
      [],
      `apps/${project.project} deviates from the shape (tools/generators/src/subgraph/shape.ts)`,
    );
});

test("the generator's templates make a subgraph of that shape", () => {
  const root = mkdtempSync(join(tmpdir(), 'shape-'));
  try {
    for (const [path, content] of subgraphFiles(TEMPLATES, {
      name: 'parcels',
      port: 4999,
      date: '20260101',
    })) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), content);
    }
    const appDir = join(root, 'apps', 'parcels');
    assert.ok(existsSync(appDir));
    assert.deepEqual(shapeDeviations(appDir, { hasImporters: false }), []);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a deviation is named: a stray module, a missing layer, a resolver index holding resolvers', () => {
  const root = mkdtempSync(join(tmpdir(), 'shape-bad-'));
  try {
    const appDir = join(root, 'apps', 'stray');
    for (const [path, content] of subgraphFiles(TEMPLATES, { name: 'stray', port: 4998, date: '20260101' })) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), content);
    }
    writeFileSync(join(appDir, 'src', 'services.ts'), 'export {};\n');
    rmSync(join(appDir, 'src', 'demo'), { recursive: true });
    writeFileSync(join(appDir, 'src', 'resolvers', 'index.ts'), 'export {};\n'.repeat(80));
    const deviations = shapeDeviations(appDir, { hasImporters: true });
    for (const expected of [
      /^src\/services\.ts: not part of the shape/,
      /^src\/demo\/: missing/,
      /^src\/import\/: missing/,
      /^src\/resolvers\/index\.ts: 81 lines/,
    ])
      assert.ok(
        deviations.some((d) => expected.test(d)),
        `${expected} in ${deviations.join('; ')}`,
      );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

/** vehicle-data reads fleet facts only through fleet-core's published contract (fleet_contract views). */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';

const APP = join(dirname(fileURLToPath(import.meta.url)), '..');
const isTestCode = (path: string) =>
  path.endsWith('.test.ts') || path.endsWith('test-harness.ts') || path.includes('/testing/');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !isTestCode(path) ? [path] : [];
  });
}

test("the app's code names no table of fleet-core's schema, only fleet_contract views", () => {
  const files = [...sources(join(APP, 'src')), ...sources(join(APP, 'migrations'))];
  assert.ok(
    files.some((f) => f.endsWith('data/fleet.ts')),
    'the fleet reads were scanned',
  );
  const offenders = files.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/\bfleet\.(?!ts\b)[a-z_]+/g)].map(
      (m) => `${relative(APP, file)}: ${m[0]}`,
    ),
  );
  assert.deepEqual(offenders, []);
  assert.match(readFileSync(join(APP, 'src/data/fleet.ts'), 'utf8'), /fleet_contract\.vehicles_v1/);
});

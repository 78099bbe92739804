/**
 * Each app owns its schema: no app's code names another app's tables. Other domains are read only
 * through the contracts their owners publish (fleet-core's `fleet_contract.*_v1` views). The
 * tables of each schema are read from the owners' migrations (`create table <schema>.<name>`), so a
 * table added later is covered without editing this test. Tests and test fixtures may set up
 * rows in another schema (they play the owner's part); application code may not.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '@fleetgraph/service-kit';

const APPS = join(repoRoot, 'apps');

function files(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules') continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) files(path, out);
    else if (path.endsWith('.ts')) out.push(path);
  }
  return out;
}

const isTestCode = (path: string) => /\.test\.ts$|test-support\.ts$|test-harness\.ts$|\/testing\//.test(path);

/** app folder -> "schema.table" names created by its migrations */
function tablesByApp(): Map<string, Set<string>> {
  const owned = new Map<string, Set<string>>();
  for (const app of readdirSync(APPS)) {
    const tables = new Set<string>();
    let migrations: string[] = [];
    try {
      migrations = files(join(APPS, app, 'migrations'));
    } catch {
      // an app without migrations owns no tables
    }
    for (const file of migrations)
      for (const m of readFileSync(file, 'utf8').matchAll(
        /create (?:unlogged )?table (?:if not exists )?([a-z_]+\.[a-z_0-9]+)/gi,
      ))
        tables.add((m[1] as string).toLowerCase());
    owned.set(app, tables);
  }
  return owned;
}

test("no app's code names another app's tables", () => {
  const owned = tablesByApp();
  assert.ok((owned.get('fleet-core')?.size ?? 0) > 20, 'the fleet tables were found');
  const violations: string[] = [];
  for (const [app] of owned) {
    const foreign = [...owned].filter(([other]) => other !== app).flatMap(([, tables]) => [...tables]);
    if (foreign.length === 0) continue;
    const pattern = new RegExp(`\\b(${foreign.map((t) => t.replace('.', '\\.')).join('|')})\\b`, 'g');
    for (const file of files(join(APPS, app)).filter((f) => !isTestCode(f))) {
      for (const m of readFileSync(file, 'utf8').matchAll(pattern))
        violations.push(`${relative(repoRoot, file)}: ${m[1]}`);
    }
  }
  assert.deepEqual(
    violations,
    [],
    `read these through the owner's published contract:\n${violations.join('\n')}`,
  );
});

/**
 * `npm test`: runs every `*.test.ts` of the workspace (or of the project folders given as
 * arguments, or of the test files given) with Node's test runner, and ends with one plain line `N passed, N failed, N skipped`.
 *
 * Tests need a PostgreSQL server to create their throwaway databases on: DATABASE_URL when set,
 * else an embedded server started here on its own port with its own git-ignored data folder.
 */
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { dataDir, repoRoot } from '@fleetgraph/service-kit';
import { startEmbeddedPostgres } from '@fleetgraph/db';

const SKIP_DIRS = new Set(['node_modules', '.data', '.nx', 'dist', '.git']);

function findTests(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    if (SKIP_DIRS.has(entry)) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) findTests(path, out);
    else if (entry.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const roots = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const searchRoots =
  roots.length > 0
    ? roots.map((r) => resolve(repoRoot, r))
    : ['apps', 'libs', 'tools'].map((r) => join(repoRoot, r));
const files = searchRoots
  .flatMap((r) => (statSync(r).isDirectory() ? findTests(r) : r.endsWith('.test.ts') ? [r] : []))
  .sort();
if (files.length === 0) {
  console.log('no test files found');
  console.log('0 passed, 0 failed');
  process.exit(roots.length > 0 ? 0 : 1);
}

let stopDatabase: (() => Promise<void>) | undefined;
const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test' };
if (!env.DATABASE_URL) {
  const port = Number(process.env.EMBEDDED_PG_TEST_PORT ?? 54330);
  console.log(`DATABASE_URL not set: starting embedded PostgreSQL for tests on port ${port}`);
  const server = await startEmbeddedPostgres({ dataDir: join(dataDir, 'test'), port });
  env.DATABASE_URL = server.url;
  stopDatabase = server.stop;
}

const concurrency = Number(process.env.TEST_CONCURRENCY ?? Math.max(1, Math.min(availableParallelism(), 4)));
const args = [
  '--import',
  'tsx',
  '--test',
  `--test-concurrency=${concurrency}`,
  '--test-timeout=180000',
  '--test-reporter=spec',
  '--test-reporter-destination=stdout',
  ...files.map((f) => relative(repoRoot, f)),
];
console.log(`running ${files.length} test files (concurrency ${concurrency})`);

const child = spawn(process.execPath, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'inherit'] });
const counts = { tests: 0, pass: 0, fail: 0, skipped: 0, todo: 0, cancelled: 0 };
let seenSummary = false;
// The reporter's summary lines (`ℹ pass 12`) come before its list of failures, which can be long:
// read every line as it streams rather than a tail of the output.
let partial = '';
const readSummary = (line: string) => {
  const match = /^\S*\s*(tests|pass|fail|skipped|todo|cancelled) (\d+)\s*$/.exec(
    line.replace(/\x1b\[[0-9;]*m/g, '').trim(),
  );
  if (match) {
    counts[match[1] as keyof typeof counts] = Number(match[2]);
    seenSummary = true;
  }
};
child.stdout.on('data', (chunk: Buffer) => {
  process.stdout.write(chunk);
  const lines = (partial + chunk.toString('utf8')).split('\n');
  partial = lines.pop() ?? '';
  for (const line of lines) readSummary(line);
});
const code: number = await new Promise((done) => child.on('close', (c) => done(c ?? 1)));
readSummary(partial);
await stopDatabase?.();
// A run that failed without a summary (the runner itself crashed) still counts as a failure.
const failed = counts.fail + counts.cancelled + (code !== 0 && !seenSummary ? 1 : 0);
console.log(`${counts.pass} passed, ${failed} failed, ${counts.skipped + counts.todo} skipped`);
process.exit(code !== 0 || failed > 0 ? 1 : 0);

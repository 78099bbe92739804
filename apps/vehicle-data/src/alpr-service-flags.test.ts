/**
 * The reader threads start in a process run with the services' Node.js flags (`npm start` and
 * `--processes` pass them; a thread refuses V8 flags), and the flags a thread may take are kept.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SERVICE_NODE_FLAGS } from '@fleetgraph/service-kit';
import { workerExecArgv } from './domain/alpr/reader';

const READ_ONE = fileURLToPath(new URL('./testing/read-one-plate.ts', import.meta.url));

test('a plate is read in a process started with the services flags', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...SERVICE_NODE_FLAGS, '--import', 'tsx', READ_ONE, 'GH-456-JK'],
    { timeout: 120_000 },
  );
  assert.equal(stdout.trim(), 'GH456JK');
});

test('a thread keeps the loader flags and drops the per-process and test runner flags', () => {
  assert.deepEqual(
    workerExecArgv([
      ...SERVICE_NODE_FLAGS,
      '--import',
      'tsx',
      '--test-reporter=spec',
      '--enable-source-maps',
    ]),
    ['--import', 'tsx', '--enable-source-maps'],
  );
});

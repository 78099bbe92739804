import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { resolveDatabase, runningEmbeddedPort } from './resolve';

const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function dataDirWithPidFile(pid: number, port: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'fleetgraph-resolve-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'pg'));
  writeFileSync(
    join(dir, 'pg', 'postmaster.pid'),
    `${pid}\n${dir}/pg\n1700000000\n${port}\n/tmp\n127.0.0.1\n`,
  );
  return dir;
}

test('a running embedded server on the data folder is found by its postmaster.pid', async () => {
  const dir = dataDirWithPidFile(process.pid, 54329);
  assert.equal(runningEmbeddedPort(dir), 54329);
  const database = await resolveDatabase({ dataDir: dir });
  assert.equal(database.url, 'postgres://postgres:postgres@127.0.0.1:54329/postgres');
  assert.equal(database.embedded, true);
  await database.stop(); // a no-op: the server belongs to the process that started it
});

test('a stale postmaster.pid (dead process) or none is not a running server', () => {
  assert.equal(runningEmbeddedPort(dataDirWithPidFile(2 ** 22 + 12345, 54329)), undefined);
  const empty = mkdtempSync(join(tmpdir(), 'fleetgraph-resolve-'));
  dirs.push(empty);
  assert.equal(runningEmbeddedPort(empty), undefined);
});

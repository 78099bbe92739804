import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { resolveDatabase, runningEmbeddedServer } from './resolve';

const PASSWORD = 'a-random-superuser-password';

const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/**
 * A data folder whose postmaster.pid names `pid`, `port` and a socket folder (/tmp, or the cluster
 * folder), with the superuser password on file unless told otherwise.
 */
function dataDirWithPidFile(pid: number, port: number, socketInCluster = false, password = true): string {
  const dir = mkdtempSync(join(tmpdir(), 'fleetgraph-resolve-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'pg'));
  mkdirSync(join(dir, 'secrets'));
  if (password) writeFileSync(join(dir, 'secrets', 'postgres-password'), `${PASSWORD}\n`);
  writeFileSync(
    join(dir, 'pg', 'postmaster.pid'),
    `${pid}\n${dir}/pg\n1700000000\n${port}\n${socketInCluster ? join(dir, 'pg') : '/tmp'}\n127.0.0.1\n`,
  );
  return dir;
}

test('a running embedded server on the data folder is found by its postmaster.pid', async () => {
  const dir = dataDirWithPidFile(process.pid, 54329);
  assert.deepEqual(runningEmbeddedServer(dir), { port: 54329 });
  const database = await resolveDatabase({ dataDir: dir });
  assert.equal(database.url, `postgres://postgres:${PASSWORD}@127.0.0.1:54329/postgres`);
  assert.equal(database.embedded, true);
  await database.stop(); // a no-op: the server belongs to the process that started it
});

test('a running embedded server with its socket in the cluster folder is reached over that socket', async () => {
  const dir = dataDirWithPidFile(process.pid, 54329, true);
  assert.deepEqual(runningEmbeddedServer(dir), { port: 54329, socketDir: join(dir, 'pg') });
  const database = await resolveDatabase({ dataDir: dir });
  assert.equal(
    database.url,
    `postgres://postgres:${PASSWORD}@${encodeURIComponent(join(dir, 'pg'))}:54329/postgres`,
  );
});

test('a running embedded server without a password file (an older start) is refused, saying why', async () => {
  const dir = dataDirWithPidFile(process.pid, 54329, false, false);
  await assert.rejects(resolveDatabase({ dataDir: dir }), /has no password file .*stop it and start again/);
});

test('a stale postmaster.pid (dead process) or none is not a running server', () => {
  assert.equal(runningEmbeddedServer(dataDirWithPidFile(2 ** 22 + 12345, 54329)), undefined);
  const empty = mkdtempSync(join(tmpdir(), 'fleetgraph-resolve-'));
  dirs.push(empty);
  assert.equal(runningEmbeddedServer(empty), undefined);
});

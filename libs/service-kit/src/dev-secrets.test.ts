import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { devSecretsFile, loadDevSecrets, readDevSecrets } from './dev-secrets';

const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'fleetgraph-secrets-'));
  dirs.push(dir);
  return dir;
};
const mode = (path: string) => statSync(path).mode & 0o777;

test('dev secrets live in the secrets folder, owner only, and stay the same across starts', () => {
  const dir = dataDir();
  const first = loadDevSecrets(dir);
  assert.equal(devSecretsFile(dir), join(dir, 'secrets', 'dev-secrets.json'));
  assert.equal(mode(join(dir, 'secrets')), 0o700);
  assert.equal(mode(devSecretsFile(dir)), 0o600);
  assert.deepEqual(loadDevSecrets(dir), first);
  assert.deepEqual(readDevSecrets(dir), first);
});

test('a secret a subgraph declares is generated once, its own, and kept', () => {
  const dir = dataDir();
  const first = loadDevSecrets(dir, ['DVIR_FILE_URL_SECRET']);
  const url = first.declared.DVIR_FILE_URL_SECRET!;
  assert.ok(url.length >= 32);
  assert.ok(![first.pagingSecret, first.subgraphSecret, first.keyEncryptionKey].includes(url));
  assert.equal(loadDevSecrets(dir, ['DVIR_FILE_URL_SECRET', 'OTHER']).declared.DVIR_FILE_URL_SECRET, url);
  assert.equal(loadDevSecrets(dir).declared.DVIR_FILE_URL_SECRET, url, 'kept when not asked');
});

test("an older start's dev-secrets.json at the top of the data folder is moved, its secrets kept", () => {
  const dir = dataDir();
  const legacy = join(dir, 'dev-secrets.json');
  writeFileSync(legacy, JSON.stringify({ pagingSecret: 'p'.repeat(43), subgraphSecret: 's'.repeat(43) }));
  assert.equal(readDevSecrets(dir)?.pagingSecret, 'p'.repeat(43));
  const secrets = loadDevSecrets(dir);
  assert.equal(secrets.pagingSecret, 'p'.repeat(43));
  assert.equal(secrets.subgraphSecret, 's'.repeat(43));
  assert.equal(existsSync(legacy), false);
  assert.equal(JSON.parse(readFileSync(devSecretsFile(dir), 'utf8')).pagingSecret, 'p'.repeat(43));
});

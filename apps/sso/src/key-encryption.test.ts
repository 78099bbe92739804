import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadDevSecrets } from '@fleetgraph/service-kit';
import { withDevKeyEncryption } from './key-encryption';

const none: { keyEncryptionKey?: string } = {};

test("on npm start's embedded database, tools seal with the key npm start generated", () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fleetgraph-dev-secrets-'));
  try {
    assert.deepEqual(
      withDevKeyEncryption(none, { embedded: true, dataDir }),
      {},
      'no dev secrets yet: nothing to use',
    );
    const { keyEncryptionKey } = loadDevSecrets(dataDir);
    assert.equal(withDevKeyEncryption(none, { embedded: true, dataDir }).keyEncryptionKey, keyEncryptionKey);
    assert.equal(
      withDevKeyEncryption({ keyEncryptionKey: 'k'.repeat(32) }, { embedded: true, dataDir })
        .keyEncryptionKey,
      'k'.repeat(32),
      'SSO_KEY_ENCRYPTION_KEY wins',
    );
    assert.deepEqual(
      withDevKeyEncryption(none, { embedded: false, dataDir }),
      {},
      'DATABASE_URL: never a dev key',
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

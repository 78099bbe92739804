import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { dataDir, secretsDir } from '@fleetgraph/service-kit';
import { DEFAULT_MAX_ATTACHMENT_BYTES, loadDvirConfig } from './config';

const base = { PAGING_SECRET: 'p'.repeat(32) };

test('the file-URL key is DVIR_FILE_URL_SECRET, else random per process: never derived from another secret', () => {
  assert.equal(
    loadDvirConfig({ ...base, DVIR_FILE_URL_SECRET: 'f'.repeat(32) }).fileUrlSecret,
    'f'.repeat(32),
  );
  const a = loadDvirConfig(base).fileUrlSecret;
  const b = loadDvirConfig(base).fileUrlSecret;
  assert.notEqual(a, b, 'the same PAGING_SECRET gives no same key');
});

test('in production, files served by dvir itself need DVIR_FILE_URL_SECRET; S3 does not', () => {
  const production = { ...base, NODE_ENV: 'production', SUBGRAPH_SHARED_SECRET: 's'.repeat(32) };
  assert.throws(() => loadDvirConfig(production), /DVIR_FILE_URL_SECRET: required in production/);
  assert.ok(loadDvirConfig({ ...production, DVIR_FILE_URL_SECRET: 'f'.repeat(32) }));
  assert.ok(loadDvirConfig({ ...production, DVIR_S3_BUCKET: 'files' }));
});

test('the local file store may not hold the secrets folder, nor sit inside it', () => {
  for (const dir of [dataDir, secretsDir(dataDir), join(secretsDir(dataDir), 'files')])
    assert.throws(
      () => loadDvirConfig({ ...base, DVIR_FILES_DIR: dir }),
      /DVIR_FILES_DIR: must not hold, or be inside, the secrets folder/,
      dir,
    );
  assert.ok(loadDvirConfig({ ...base, DVIR_FILES_DIR: join(dataDir, 'dvir-files') }));
});

test('DVIR_MAX_ATTACHMENT_BYTES caps what an import takes (default 20 MiB)', () => {
  assert.equal(loadDvirConfig(base).maxAttachmentBytes, DEFAULT_MAX_ATTACHMENT_BYTES);
  assert.equal(loadDvirConfig({ ...base, DVIR_MAX_ATTACHMENT_BYTES: '1000' }).maxAttachmentBytes, 1000);
  assert.throws(
    () => loadDvirConfig({ ...base, DVIR_MAX_ATTACHMENT_BYTES: '0' }),
    /DVIR_MAX_ATTACHMENT_BYTES/,
  );
});

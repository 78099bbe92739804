/**
 * Signing keys are sealed at rest (key-encryption.ts): the database holds no private key
 * material when SSO_KEY_ENCRYPTION_KEY is set, keys of an older start are sealed in place, a key
 * sealed with another encryption key stops the start with a clear error, and the encryption key
 * can be rotated with SSO_KEY_ENCRYPTION_KEY_PREVIOUS.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { buildApp } from './app';
import { loadSsoConfig } from './config';
import { insertUser, postToken, startSso, TEST_ISSUER, type SsoHarness } from './test-harness';

const KEY_A = 'a'.repeat(16) + '-first-encryption-key-0123456789';
const KEY_B = 'b'.repeat(16) + '-second-encryption-key-012345678';
let harness: SsoHarness;
const apps: FastifyInstance[] = [];

before(async () => {
  // First start: no encryption key, as an older version stored them.
  harness = await startSso('keys_at_rest', { PURGE_INTERVAL_SECONDS: '0' });
});
after(async () => {
  for (const app of apps) await app.close();
  await harness?.close();
});

async function start(env: Record<string, string>): Promise<FastifyInstance> {
  const config = loadSsoConfig({
    LOG_LEVEL: 'silent',
    SSO_ISSUER: TEST_ISSUER,
    PURGE_INTERVAL_SECONDS: '0',
    ...env,
  });
  const app = await buildApp({ ...config, databaseUrl: harness.database.url });
  apps.push(app);
  return app;
}

const storedKeys = async () =>
  (await harness.knex('sso.signing_keys').select('kid', 'private_jwk')) as {
    kid: string;
    private_jwk: Record<string, unknown>;
  }[];

async function assertIssuesVerifiableTokens(app: FastifyInstance) {
  const user = await insertUser(harness.knex);
  const response = await postToken(app, {
    grant_type: 'password',
    username: user.email,
    password: user.password,
  });
  assert.equal(response.statusCode, 200, response.body);
  const jwks = (await app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
  const { payload } = await jwtVerify(response.json().access_token, createLocalJWKSet(jwks), {
    issuer: TEST_ISSUER,
  });
  assert.equal((payload.user as { email: string }).email, user.email);
}

test('a plain key of an older start is sealed in place at the first start with a key; no private material is stored', async () => {
  const [plain] = await storedKeys();
  assert.ok(plain?.private_jwk.d, 'control: the first start stored the key in the clear');
  const app = await start({ SSO_KEY_ENCRYPTION_KEY: KEY_A });
  const rows = await storedKeys();
  assert.deepEqual(
    rows.map((r) => r.kid),
    [plain!.kid],
    'the same signing key, not a new one',
  );
  for (const row of rows) {
    assert.equal(row.private_jwk.sealed, 'A256GCM');
    for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi', 'n'])
      assert.equal(row.private_jwk[member], undefined, member);
  }
  await assertIssuesVerifiableTokens(app);
});

test('a start with another encryption key, or none, refuses to start with a clear error', async () => {
  await assert.rejects(
    start({ SSO_KEY_ENCRYPTION_KEY: KEY_B }),
    /sealed with encryption key \w+, which neither/,
  );
  await assert.rejects(start({}), /is encrypted: set SSO_KEY_ENCRYPTION_KEY/);
});

test('rotating the encryption key: the previous one opens the rows, which are sealed again under the new one', async () => {
  const before = (await storedKeys())[0]!.private_jwk.keyId;
  const app = await start({ SSO_KEY_ENCRYPTION_KEY: KEY_B, SSO_KEY_ENCRYPTION_KEY_PREVIOUS: KEY_A });
  const after = (await storedKeys())[0]!.private_jwk.keyId;
  assert.notEqual(after, before);
  await assertIssuesVerifiableTokens(app);
  await start({ SSO_KEY_ENCRYPTION_KEY: KEY_B }); // the previous key is no longer needed
});

test('in production the key is required unless plaintext keys are explicitly allowed', () => {
  assert.throws(() => loadSsoConfig({ NODE_ENV: 'production' }), /SSO_KEY_ENCRYPTION_KEY/);
  assert.doesNotThrow(() => loadSsoConfig({ NODE_ENV: 'production', SSO_ALLOW_PLAINTEXT_KEYS: 'true' }));
  assert.doesNotThrow(() => loadSsoConfig({ NODE_ENV: 'production', SSO_KEY_ENCRYPTION_KEY: KEY_A }));
});

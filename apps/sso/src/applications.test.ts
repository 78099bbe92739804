import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createRevocationList } from '@fleetgraph/auth';
import { runAdminCommand, UsageError } from './admin/commands';
import { hashClientSecret } from './data/applications';
import {
  basicAuth,
  decodePart,
  insertApplication,
  insertUser,
  postToken,
  startSso,
  type SsoHarness,
} from './test-harness';

let sso: SsoHarness;
let user: Awaited<ReturnType<typeof insertUser>>;
/** Another process's change to an application reaching the SSO's client cache, by client id. */
const announced = new EventEmitter();
before(async () => {
  sso = await startSso('applications', {}, { onApplicationChange: (id) => announced.emit(id) });
  user = await insertUser(sso.knex);
});
after(() => sso?.close());

const passwordParams = () => ({ grant_type: 'password', username: user.email, password: user.password });

/** Runs an admin command of another process and waits until the SSO heard of its change. */
async function adminChange(clientId: string, argv: string[]): Promise<string[]> {
  const heard = once(announced, clientId);
  const out = await runAdminCommand(sso.knex, argv);
  await heard;
  return out;
}

function assertInvalidClient(res: Awaited<ReturnType<typeof postToken>>) {
  assert.equal(res.statusCode, 401, res.body);
  assert.equal(res.json().error, 'invalid_client');
  assert.match(String(res.headers['www-authenticate']), /^Basic realm="fleetgraph-sso"/);
  assert.equal(res.headers['cache-control'], 'no-store');
}

describe('applications and client authentication', () => {
  test('only the SHA-256 of a client secret is stored', async () => {
    const client = await insertApplication(sso.knex);
    const row = await sso.knex('sso.applications').where({ client_id: client.clientId }).first();
    assert.equal(row.client_secret_hash, hashClientSecret(client.clientSecret!));
    assert.notEqual(row.client_secret_hash, client.clientSecret);
    assert.match(client.clientId, /^fg_[A-Za-z0-9_-]{22}$/);
  });

  test('client_secret_basic and client_secret_post both authenticate', async () => {
    const client = await insertApplication(sso.knex);
    const basic = await postToken(sso.app, passwordParams(), {
      headers: { authorization: basicAuth(client.clientId, client.clientSecret!) },
    });
    assert.equal(basic.statusCode, 200, basic.body);
    const post = await postToken(sso.app, {
      ...passwordParams(),
      client_id: client.clientId,
      client_secret: client.clientSecret!,
    });
    assert.equal(post.statusCode, 200, post.body);
    assert.equal(decodePart(post.json().access_token, 1).client_id, client.clientId);
  });

  test('a wrong secret, a missing secret and an unknown client are invalid_client 401 with WWW-Authenticate', async () => {
    const client = await insertApplication(sso.knex);
    assertInvalidClient(
      await postToken(sso.app, passwordParams(), {
        headers: { authorization: basicAuth(client.clientId, 'wrong') },
      }),
    );
    assertInvalidClient(
      await postToken(sso.app, {
        ...passwordParams(),
        client_id: client.clientId,
        client_secret: `${client.clientSecret}x`,
      }),
    );
    assertInvalidClient(await postToken(sso.app, { ...passwordParams(), client_id: client.clientId }));
    assertInvalidClient(
      await postToken(sso.app, { ...passwordParams(), client_id: 'fg_nobody', client_secret: 'whatever' }),
    );
  });

  test('a public client authenticates with its client_id alone (none) and may not present a secret', async () => {
    const client = await insertApplication(sso.knex, { confidential: false });
    assert.equal(client.clientSecret, undefined);
    const ok = await postToken(sso.app, { ...passwordParams(), client_id: client.clientId });
    assert.equal(ok.statusCode, 200, ok.body);
    assertInvalidClient(
      await postToken(sso.app, { ...passwordParams(), client_id: client.clientId, client_secret: 'made-up' }),
    );
  });

  test('a client may only use the grants it was registered with: unauthorized_client', async () => {
    const client = await insertApplication(sso.knex, { grantTypes: ['authorization_code', 'refresh_token'] });
    const res = await postToken(sso.app, passwordParams(), {
      headers: { authorization: basicAuth(client.clientId, client.clientSecret!) },
    });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error, 'unauthorized_client');
  });
});

describe('admin CLI commands', () => {
  test('disabling a user or resetting the password ends its access tokens, published for the gateway', async () => {
    const revocations = createRevocationList();
    const user = await insertUser(sso.knex);
    const login = async () =>
      (
        await postToken(sso.app, { grant_type: 'password', username: user.email, password: user.password })
      ).json() as { access_token: string; refresh_token: string };
    const jtiOf = (token: string) => decodePart(token, 1).jti as string;
    const me = (token: string) =>
      sso.app.inject({ url: '/api/v1/users/me', headers: { authorization: `Bearer ${token}` } });

    const first = await login();
    await runAdminCommand(sso.knex, ['user', 'disable', '--email', user.email], { revocations });
    assert.equal(await revocations.isRevoked(jtiOf(first.access_token)), true, 'published on disable');
    const refreshed = await postToken(sso.app, {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
    });
    assert.equal(refreshed.json().error, 'invalid_grant');
    await runAdminCommand(sso.knex, ['user', 'enable', '--email', user.email]);

    const second = await login();
    assert.equal((await me(second.access_token)).statusCode, 200);
    await runAdminCommand(
      sso.knex,
      ['user', 'reset-password', '--email', user.email, '--password', 'a brand new password'],
      { revocations },
    );
    assert.equal(await revocations.isRevoked(jtiOf(second.access_token)), true, 'published on reset');
    assert.equal((await me(second.access_token)).statusCode, 401);
    await revocations.close();
  });

  test('user create, disable, enable and reset-password', async () => {
    const out = await runAdminCommand(sso.knex, [
      'user',
      'create',
      '--email',
      'cli@example.test',
      '--name',
      'Cli User',
    ]);
    assert.match(out[0]!, /created: uid [0-9a-f-]{36}/);
    const password = /shown once\): (\S+)/.exec(out[1]!)![1]!;
    assert.equal(
      (await postToken(sso.app, { grant_type: 'password', username: 'cli@example.test', password }))
        .statusCode,
      200,
    );

    await runAdminCommand(sso.knex, ['user', 'disable', '--email', 'cli@example.test']);
    assert.equal(
      (await postToken(sso.app, { grant_type: 'password', username: 'cli@example.test', password }))
        .statusCode,
      400,
    );
    await runAdminCommand(sso.knex, ['user', 'enable', '--email', 'cli@example.test']);

    const reset = await runAdminCommand(sso.knex, [
      'user',
      'reset-password',
      '--email',
      'cli@example.test',
      '--password',
      'a brand new password',
    ]);
    assert.doesNotMatch(reset.join('\n'), /shown once/);
    assert.equal(
      (await postToken(sso.app, { grant_type: 'password', username: 'cli@example.test', password }))
        .statusCode,
      400,
    );
    assert.equal(
      (
        await postToken(sso.app, {
          grant_type: 'password',
          username: 'cli@example.test',
          password: 'a brand new password',
        })
      ).statusCode,
      200,
    );
    const audited = await sso.knex('sso.audit_log').where({ event: 'admin.user' }).count({ n: '*' }).first();
    assert.ok(Number(audited!.n) >= 4);
  });

  test('app create prints the secret once; list never shows it; rotate-secret replaces it; delete removes the app', async () => {
    const out = await runAdminCommand(sso.knex, [
      'app',
      'create',
      '--name',
      'Fleet Portal',
      '--redirect-uri',
      'https://portal.example.test/cb',
      '--scopes',
      'public read',
      '--grants',
      'authorization_code refresh_token password',
    ]);
    const clientId = /client_id: (\S+)/.exec(out.join('\n'))![1]!;
    const secret = /client_secret \(shown once, store it now\): (\S+)/.exec(out.join('\n'))![1]!;
    const list = (await runAdminCommand(sso.knex, ['app', 'list'])).join('\n');
    assert.match(list, new RegExp(clientId));
    assert.doesNotMatch(list, new RegExp(secret));

    const login = () =>
      postToken(sso.app, passwordParams(), { headers: { authorization: basicAuth(clientId, secret) } });
    assert.equal((await login()).statusCode, 200);
    const rotated = await adminChange(clientId, ['app', 'rotate-secret', '--client-id', clientId]);
    const newSecret = /shown once, store it now\): (\S+)/.exec(rotated.join('\n'))![1]!;
    // The CLI is another process: its change reaches the SSO's client cache by the database's
    // announcement, milliseconds later (data/application-cache.ts).
    assertInvalidClient(await login());
    assert.equal(
      (
        await postToken(sso.app, passwordParams(), {
          headers: { authorization: basicAuth(clientId, newSecret) },
        })
      ).statusCode,
      200,
    );

    await adminChange(clientId, ['app', 'delete', '--client-id', clientId]);
    assertInvalidClient(
      await postToken(sso.app, passwordParams(), {
        headers: { authorization: basicAuth(clientId, newSecret) },
      }),
    );
  });

  test('a public app has no secret; bad input is a usage error', async () => {
    const out = await runAdminCommand(sso.knex, [
      'app',
      'create',
      '--name',
      'CLI tool',
      '--redirect-uri',
      'http://127.0.0.1/cb',
      '--public',
    ]);
    assert.doesNotMatch(out.join('\n'), /client_secret/);
    await assert.rejects(runAdminCommand(sso.knex, ['app', 'create', '--name', 'x']), UsageError);
    await assert.rejects(
      runAdminCommand(sso.knex, ['app', 'create', '--name', 'x', '--redirect-uri', 'not a uri']),
      UsageError,
    );
    await assert.rejects(
      runAdminCommand(sso.knex, [
        'app',
        'create',
        '--name',
        'x',
        '--redirect-uri',
        'https://a.test/',
        '--scopes',
        'admin',
      ]),
      UsageError,
    );
    await assert.rejects(runAdminCommand(sso.knex, ['frobnicate']), UsageError);
  });

  test('the CLI process runs a command against DATABASE_URL', async () => {
    const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--import',
        'tsx',
        cli,
        'app',
        'create',
        '--name',
        'From CLI',
        '--redirect-uri',
        'https://cli.example.test/cb',
      ],
      {
        env: { ...process.env, DATABASE_URL: sso.database.url, LOG_LEVEL: 'silent' },
      },
    );
    assert.match(stdout, /client_id: fg_/);
    assert.match(stdout, /client_secret \(shown once, store it now\): \S{43}/);
  });
});

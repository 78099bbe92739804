import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import { after, before, test } from 'node:test';
import { createKnex, createTestDatabase, type Knex, type TestDatabase } from '@fleetgraph/db';
import {
  createDatabaseRevocationList,
  MAX_ACCESS_TOKEN_TTL_S,
  MAX_PENDING_HINTS,
  type DatabaseRevocationList,
} from './revocation-database';

let database: TestDatabase;
let knex: Knex;
const lists: DatabaseRevocationList[] = [];
const T0 = Date.parse('2026-11-24T12:00:00Z');
const exp = (secondsFromT0: number) => Math.floor(T0 / 1000) + secondsFromT0;

/** The same shape as the SSO's contract: rows, a view of revoked ones, a trigger announcing them. */
before(async () => {
  database = await createTestDatabase('auth_revocations');
  knex = createKnex({ url: database.url });
  await knex.raw(`
    create table tokens (jti uuid primary key, expires_at timestamptz not null, revoked_at timestamptz);
    create view revoked_v1 as select jti, expires_at from tokens where revoked_at is not null;
    create function announce() returns trigger language plpgsql as $$
    begin
      perform pg_notify('test_revocations', new.jti::text || ' ' || floor(extract(epoch from new.expires_at))::bigint::text);
      return null;
    end $$;
    create trigger announce after update of revoked_at on tokens for each row execute function announce();
  `);
});
after(async () => {
  for (const list of lists) await list.close();
  await knex?.destroy();
  await database?.drop();
});

/** Each list's changes (a load or an announcement), so a test waits on events, not on the clock. */
const changes = new EventEmitter();

function open(clock: { now: number }): DatabaseRevocationList {
  const list = createDatabaseRevocationList({
    onChange: () => changes.emit('change'),
    databaseUrl: database.url,
    view: 'revoked_v1',
    channel: 'test_revocations',
    now: () => clock.now,
    reconnectMs: 20,
    onError: () => {},
  });
  lists.push(list);
  return list;
}

async function revokeRow(jti: string, secondsFromT0: number): Promise<void> {
  await knex('tokens').insert({ jti, expires_at: new Date(exp(secondsFromT0) * 1000) });
  await knex('tokens').where({ jti }).update({ revoked_at: knex.fn.now() });
}

/** Waits for a condition the database delivers asynchronously: re-checked after every change. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (;;) {
    const next = once(changes, 'change');
    if (await check()) return;
    await next;
  }
}

test('a verifier started after a revocation refuses the token (loaded from the view)', async () => {
  const before = randomUUID();
  await revokeRow(before, 3600);
  const list = open({ now: T0 });
  assert.equal(await list.isRevoked(before), true);
  assert.equal(await list.isRevoked(randomUUID()), false, 'an unknown token is not revoked');
});

test('a revocation made while the verifier runs arrives by notification', async () => {
  const list = open({ now: T0 });
  await list.synced();
  const jti = randomUUID();
  assert.equal(await list.isRevoked(jti), false);
  await revokeRow(jti, 3600);
  await eventually(() => list.isRevoked(jti));
});

test('after a lost connection, what was revoked while away is loaded again', async () => {
  const list = open({ now: T0 });
  await list.synced();
  await knex.raw(
    "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'revocations' and datname = current_database()",
  );
  const jti = randomUUID();
  await revokeRow(jti, 3600);
  await eventually(() => list.isRevoked(jti));
});

test('a revocation is forgotten once its token has expired (injected clock)', async () => {
  const clock = { now: T0 };
  const jti = randomUUID();
  await revokeRow(jti, 60);
  const list = open(clock);
  assert.equal(await list.isRevoked(jti), true);
  clock.now = T0 + 61_000;
  assert.equal(await list.isRevoked(jti), false, 'the token expired on its own');
});

/** A notification on the channel as any role of the database may send one. */
const forge = (payload: string) => knex.raw("select pg_notify('test_revocations', ?)", [payload]);

test('an announcement is only a hint: an id the view does not hold is never revoked', async () => {
  const list = open({ now: T0 });
  await list.synced();
  const live = randomUUID();
  await knex('tokens').insert({ jti: live, expires_at: new Date(exp(3600) * 1000) });
  const unknown = randomUUID();
  await forge(`${live} ${exp(3600)}`);
  await forge(`${unknown} 99999999999`);
  await forge('not-a-token-id 1');
  // Notifications arrive, and are looked up, in the order they were sent: once a real
  // revocation sent after the forged ones is in, the forged ones were looked at before it.
  const real = randomUUID();
  await revokeRow(real, 3600);
  await eventually(() => list.isRevoked(real));
  assert.equal(await list.isRevoked(live), false, 'a live token announced by someone else stays valid');
  assert.equal(await list.isRevoked(unknown), false);
});

test('a revocation keeps the expiry the view gives, never the announced one, and at most a day', async () => {
  const clock = { now: T0 };
  const list = open(clock);
  await list.synced();
  const jti = randomUUID();
  await knex('tokens').insert({ jti, expires_at: new Date(exp(60) * 1000), revoked_at: new Date(T0) });
  await forge(`${jti} 99999999999`);
  await eventually(() => list.isRevoked(jti));
  clock.now = T0 + 61_000;
  assert.equal(await list.isRevoked(jti), false, 'gone at the expiry of the row, not year 5138');

  // A row claiming to outlive any token is kept no longer than the longest a token lives.
  clock.now = T0;
  const far = randomUUID();
  await revokeRow(far, 100 * 365 * 86_400);
  await eventually(() => list.isRevoked(far));
  clock.now = T0 + (MAX_ACCESS_TOKEN_TTL_S - 1) * 1000;
  assert.equal(await list.isRevoked(far), true);
  clock.now = T0 + (MAX_ACCESS_TOKEN_TTL_S + 1) * 1000;
  assert.equal(await list.isRevoked(far), false);
});

test('a flood of forged announcements adds nothing and a real revocation in it still arrives', async () => {
  const list = open({ now: T0 });
  await list.synced();
  const kept = list.size();
  await knex.raw(
    `select pg_notify('test_revocations', gen_random_uuid()::text || ' 99999999999' || repeat('x', 7000))
       from generate_series(1, ?)`,
    [MAX_PENDING_HINTS + 2_000],
  );
  const real = randomUUID();
  await revokeRow(real, 3600);
  await eventually(() => list.isRevoked(real));
  await list.confirmed();
  assert.equal(list.size(), kept + 1, 'only the real revocation was added');
});

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_THROTTLE_POLICY, failureDelayMs } from './data/throttle';
import { CHECK_QUEUE_PER_KEY, CHECK_SLOTS_PER_KEY } from './session/password-check';
import {
  authorizeUrl,
  Browser,
  csrfFrom,
  formActionFrom,
  insertApplication,
  insertUser,
  REDIRECT_URI,
  startSso,
  type SsoHarness,
} from './test-harness';

let sso: SsoHarness;
/** Progressive delays are recorded, not waited for. */
const delays: number[] = [];
before(async () => {
  sso = await startSso('throttle', {}, { sleep: async (ms) => void delays.push(ms) });
});
after(() => sso?.close());

const PAIR_MAX = DEFAULT_THROTTLE_POLICY.pairMaxFailures;
const ADDRESS_MAX = DEFAULT_THROTTLE_POLICY.addressMaxFailures;

const passwordGrant = (username: string, password: string, ip: string) =>
  sso.app.inject({
    method: 'POST',
    url: '/oauth/token',
    remoteAddress: ip,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'password', username, password }).toString(),
  });

describe('brute-force policy', () => {
  test("40 attacking addresses at once cannot queue the owner's sign-in: it goes first, they are shed", async () => {
    const victim = await insertUser(sso.knex);
    const attackers = Array.from({ length: 40 }, (_, i) => `10.40.${Math.floor(i / 200)}.${(i % 200) + 1}`);
    // Each attacking address has failed once already: its attempts queue last.
    for (const ip of attackers)
      assert.equal((await passwordGrant(victim.email, 'wrong', ip)).statusCode, 400);
    let checkedBeforeOwner = 0;
    let ownerAnswered = false;
    const attempts = attackers.flatMap((ip) =>
      Array.from({ length: 10 }, (_, i) =>
        passwordGrant(victim.email, `wrong-${i}`, ip).then((response) => {
          if (response.statusCode === 400 && !ownerAnswered) checkedBeforeOwner += 1;
          return response;
        }),
      ),
    );
    const owner = await passwordGrant(victim.email, victim.password, '192.0.2.77');
    ownerAnswered = true;
    assert.equal(owner.statusCode, 200, owner.body);
    const answers = await Promise.all(attempts);
    assert.ok(
      checkedBeforeOwner <= CHECK_SLOTS_PER_KEY + CHECK_QUEUE_PER_KEY,
      `${checkedBeforeOwner} attacking checks ran before the owner's`,
    );
    const shed = answers.filter((response) => response.statusCode === 429);
    assert.ok(shed.length > answers.length / 2, `${shed.length} of ${answers.length} shed`);
    for (const response of shed) {
      assert.equal(response.headers['retry-after'], '2');
      assert.equal(response.json().error, 'invalid_grant');
    }
  });

  test('10 failures from one address lock that address out of that account, with 429 + Retry-After', async () => {
    const user = await insertUser(sso.knex);
    for (let i = 0; i < PAIR_MAX; i++) {
      const res = await passwordGrant(user.email, `wrong-${i}`, '10.0.0.1');
      assert.equal(res.statusCode, 400);
    }
    const blocked = await passwordGrant(user.email, user.password, '10.0.0.1');
    assert.equal(blocked.statusCode, 429);
    assert.equal(blocked.json().error, 'invalid_grant');
    assert.match(blocked.json().error_description, /Too many/);
    const retryAfter = Number(blocked.headers['retry-after']);
    assert.ok(retryAfter > 0 && retryAfter <= 900, `Retry-After ${retryAfter}`);
    assert.equal(blocked.headers['cache-control'], 'no-store');
    // The window passing frees the pair.
    await sso
      .knex('sso.auth_failures')
      .where('key', `pair:${user.email.toLowerCase()}|10.0.0.1`)
      .update({ at: new Date(Date.now() - 16 * 60_000) });
    assert.equal((await passwordGrant(user.email, user.password, '10.0.0.1')).statusCode, 200);
  });

  test("the victim signs in from another address while the attacker's address is locked out", async () => {
    const victim = await insertUser(sso.knex);
    for (let i = 0; i < PAIR_MAX + 5; i++) await passwordGrant(victim.email, `guess-${i}`, '10.66.0.1');
    assert.equal((await passwordGrant(victim.email, victim.password, '10.66.0.1')).statusCode, 429);
    const own = await passwordGrant(victim.email, victim.password, '10.0.50.1');
    assert.equal(own.statusCode, 200, own.body);
  });

  test('one NAT address where several users each mistype a few times locks none of them', async () => {
    const users = await Promise.all(Array.from({ length: 8 }, () => insertUser(sso.knex)));
    for (const user of users)
      for (let i = 0; i < 3; i++)
        assert.equal((await passwordGrant(user.email, 'typo', '10.5.5.5')).statusCode, 400);
    for (const user of users)
      assert.equal((await passwordGrant(user.email, user.password, '10.5.5.5')).statusCode, 200);
  });

  test('an address spraying over many accounts is stopped at its ceiling, for every account; other addresses are not', async () => {
    // The ceiling's failures, written as the policy records them (100 sequential argon2 checks would only slow the test).
    await sso
      .knex('sso.auth_failures')
      .insert(Array.from({ length: ADDRESS_MAX }, () => ({ key: 'ip:10.9.9.9' })));
    const user = await insertUser(sso.knex);
    const sprayed = await passwordGrant(user.email, user.password, '10.9.9.9');
    assert.equal(sprayed.statusCode, 429);
    assert.equal((await passwordGrant(user.email, user.password, '10.9.9.10')).statusCode, 200);
  });

  test('20 correct concurrent logins from one address all succeed', async () => {
    const users = await Promise.all(Array.from({ length: 10 }, () => insertUser(sso.knex)));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        passwordGrant(users[i % 10]!.email, users[i % 10]!.password, '10.20.0.1'),
      ),
    );
    assert.deepEqual(
      answers.map((res) => res.statusCode),
      Array(20).fill(200),
    );
  });

  test('a burst of concurrent wrong passwords from one address gets at most a few checks past the lock', async () => {
    const user = await insertUser(sso.knex);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => passwordGrant(user.email, `wrong-${i}`, '10.7.0.1')),
    );
    const checked = answers.filter((res) => res.statusCode === 400).length;
    const refused = answers.filter((res) => res.statusCode === 429).length;
    assert.equal(checked + refused, 40);
    // Checks of one pair run at most CHECK_SLOTS_PER_KEY at once and each is gated when its turn
    // comes: the lock lets through at most the checks already running when it was reached.
    assert.ok(checked <= PAIR_MAX + CHECK_SLOTS_PER_KEY, `${checked} passwords were checked`);
    const recorded = await sso
      .knex('sso.auth_failures')
      .where('key', `pair:${user.email.toLowerCase()}|10.7.0.1`)
      .count({ n: '*' })
      .first();
    assert.equal(
      Number(recorded!.n),
      checked,
      'refused attempts are not recorded (they cannot extend the lock)',
    );
  });

  test("an account's failures from any addresses slow its wrong answers down, progressively and capped", async () => {
    const user = await insertUser(sso.knex);
    delays.length = 0;
    for (let i = 0; i < 9; i++) await passwordGrant(user.email, 'wrong', `10.30.${i}.1`);
    assert.deepEqual(
      delays,
      [0, 0, 0, 250, 500, 1000, 2000, 4000, 4000].filter((ms) => ms > 0),
    );
    assert.equal(failureDelayMs(50, DEFAULT_THROTTLE_POLICY), 4000);
    // The owner's right password is answered without delay and is not refused.
    delays.length = 0;
    assert.equal((await passwordGrant(user.email, user.password, '10.31.0.1')).statusCode, 200);
    assert.deepEqual(delays, []);
  });

  test('a success clears the pair: counting starts again for that address', async () => {
    const user = await insertUser(sso.knex);
    for (let i = 0; i < PAIR_MAX - 1; i++) await passwordGrant(user.email, 'wrong', '10.1.0.1');
    assert.equal((await passwordGrant(user.email, user.password, '10.1.0.1')).statusCode, 200);
    for (let i = 0; i < PAIR_MAX - 1; i++)
      assert.equal(
        (await passwordGrant(user.email, 'wrong', '10.1.0.1')).statusCode,
        400,
        'counting starts again',
      );
  });

  test('a success records nothing against the address', async () => {
    const user = await insertUser(sso.knex);
    assert.equal((await passwordGrant(user.email, user.password, '10.8.0.1')).statusCode, 200);
    assert.equal((await sso.knex('sso.auth_failures').where('key', 'ip:10.8.0.1')).length, 0);
  });

  test('an unknown account is counted like a known one (no enumeration by the lock)', async () => {
    for (let i = 0; i < PAIR_MAX; i++)
      assert.equal((await passwordGrant('nobody@example.test', 'x', '10.4.0.1')).statusCode, 400);
    assert.equal((await passwordGrant('nobody@example.test', 'x', '10.4.0.1')).statusCode, 429);
  });

  test('sign-in page: the same policy, a 429 page with Retry-After', async () => {
    const user = await insertUser(sso.knex);
    const app = await insertApplication(sso.knex);
    const browser = new Browser(sso.app, '10.2.0.1');
    const page = await browser.get(
      authorizeUrl({ client_id: app.clientId, redirect_uri: REDIRECT_URI, response_type: 'code' }),
    );
    const action = formActionFrom(page.body);
    const csrf = csrfFrom(page.body);
    for (let i = 0; i < PAIR_MAX; i++) {
      assert.equal(
        (await browser.post(action, { csrf_token: csrf, email: user.email, password: 'wrong' })).statusCode,
        401,
      );
    }
    const blocked = await browser.post(action, {
      csrf_token: csrf,
      email: user.email,
      password: user.password,
    });
    assert.equal(blocked.statusCode, 429);
    assert.ok(Number(blocked.headers['retry-after']) > 0);
    assert.match(blocked.body, /Too many failed attempts/);
    assert.equal(browser.cookies.has('fg_session'), false);
  });
});

describe('audit log', () => {
  test('sign-ins, failures, throttling, grants and consents are recorded without secrets', async () => {
    const user = await insertUser(sso.knex);
    const app = await insertApplication(sso.knex);
    const browser = new Browser(sso.app, '10.3.0.1');
    const url = authorizeUrl({ client_id: app.clientId, redirect_uri: REDIRECT_URI, response_type: 'code' });
    let page = await browser.get(url);
    await browser.post(formActionFrom(page.body), {
      csrf_token: csrfFrom(page.body),
      email: user.email,
      password: 'wrong',
    });
    page = await browser.get(url);
    await browser.post(formActionFrom(page.body), {
      csrf_token: csrfFrom(page.body),
      email: user.email,
      password: user.password,
    });
    page = await browser.get(url);
    await browser.post(formActionFrom(page.body), { csrf_token: csrfFrom(page.body), decision: 'approve' });
    await passwordGrant(user.email, user.password, '10.3.0.2');

    const rows = await sso
      .knex('sso.audit_log')
      .where({ user_id: user.id })
      .orderBy('id')
      .select('event', 'client_id', 'ip', 'detail');
    const events = rows.map((r) => r.event);
    for (const event of [
      'sign_in.failure',
      'sign_in.success',
      'consent.granted',
      'authorize.code_issued',
      'token.issued',
    ]) {
      assert.ok(events.includes(event), `${event} in ${events.join(', ')}`);
    }
    assert.equal(rows.find((r) => r.event === 'sign_in.success').ip, '10.3.0.1');
    assert.equal(rows.find((r) => r.event === 'sign_in.success').client_id, app.clientId);
    assert.doesNotMatch(JSON.stringify(rows), new RegExp(user.password));
    assert.ok(await sso.knex('sso.audit_log').where({ event: 'token.throttled' }).first());
    assert.ok(await sso.knex('sso.audit_log').where({ event: 'sign_in.throttled' }).first());
  });
});

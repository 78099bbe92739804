import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_FAILURES } from './data/throttle';
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
before(async () => {
  sso = await startSso('throttle');
});
after(() => sso?.close());

const passwordGrant = (username: string, password: string, ip: string) =>
  sso.app.inject({
    method: 'POST',
    url: '/oauth/token',
    remoteAddress: ip,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'password', username, password }).toString(),
  });

describe('brute-force throttling', () => {
  test('password grant: after 10 failures for an account, even the right password gets 429 + Retry-After', async () => {
    const user = await insertUser(sso.knex);
    for (let i = 0; i < MAX_FAILURES; i++) {
      const res = await passwordGrant(user.email, `wrong-${i}`, `10.0.0.${i + 1}`);
      assert.equal(res.statusCode, 400);
    }
    const blocked = await passwordGrant(user.email, user.password, '10.0.1.1');
    assert.equal(blocked.statusCode, 429);
    assert.equal(blocked.json().error, 'invalid_grant');
    assert.match(blocked.json().error_description, /Too many/);
    const retryAfter = Number(blocked.headers['retry-after']);
    assert.ok(retryAfter > 0 && retryAfter <= 900, `Retry-After ${retryAfter}`);
    assert.equal(blocked.headers['cache-control'], 'no-store');
    // The window passing frees the account.
    await sso
      .knex('sso.auth_failures')
      .where('key', `account:${user.email.toLowerCase()}`)
      .update({ at: new Date(Date.now() - 16 * 60_000) });
    assert.equal((await passwordGrant(user.email, user.password, '10.0.1.1')).statusCode, 200);
  });

  test('password grant: 10 failures from one address throttle it for every account, not other addresses', async () => {
    const users = await Promise.all(Array.from({ length: MAX_FAILURES + 1 }, () => insertUser(sso.knex)));
    for (let i = 0; i < MAX_FAILURES; i++)
      assert.equal((await passwordGrant(users[i]!.email, 'wrong', '10.9.9.9')).statusCode, 400);
    const last = users[MAX_FAILURES]!;
    assert.equal((await passwordGrant(last.email, last.password, '10.9.9.9')).statusCode, 429);
    assert.equal((await passwordGrant(last.email, last.password, '10.9.9.10')).statusCode, 200);
  });

  test('a burst of concurrent wrong passwords gets at most MAX_FAILURES checks, the rest 429', async () => {
    const user = await insertUser(sso.knex);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => passwordGrant(user.email, `wrong-${i}`, `10.7.${i}.1`)),
    );
    const checked = answers.filter((res) => res.statusCode === 400).length;
    const refused = answers.filter((res) => res.statusCode === 429).length;
    assert.equal(checked + refused, 40);
    // Each attempt is counted before its check, so a burst is cut at MAX_FAILURES checks at most
    // (when all arrive together, each sees the others and none is checked).
    assert.ok(checked <= MAX_FAILURES, `${checked} passwords were checked`);
    const recorded = await sso
      .knex('sso.auth_failures')
      .where('key', `account:${user.email.toLowerCase()}`)
      .count({ n: '*' })
      .first();
    assert.equal(
      Number(recorded!.n),
      checked,
      'refused attempts are not recorded (they cannot extend the lockout)',
    );
    assert.equal(
      (await passwordGrant(user.email, user.password, '10.7.99.1')).statusCode,
      checked < MAX_FAILURES ? 200 : 429,
    );
  });

  test('a success removes its own attempt record: the address is not charged for it', async () => {
    const user = await insertUser(sso.knex);
    assert.equal((await passwordGrant(user.email, user.password, '10.8.0.1')).statusCode, 200);
    assert.equal((await sso.knex('sso.auth_failures').where('key', 'ip:10.8.0.1')).length, 0);
  });

  test('a success clears the account failures', async () => {
    const user = await insertUser(sso.knex);
    for (let i = 0; i < MAX_FAILURES - 1; i++) await passwordGrant(user.email, 'wrong', `10.1.0.${i + 1}`);
    assert.equal((await passwordGrant(user.email, user.password, '10.1.1.1')).statusCode, 200);
    assert.equal(
      (await passwordGrant(user.email, 'wrong', '10.1.1.2')).statusCode,
      400,
      'counting starts again',
    );
  });

  test('sign-in page: throttled per account with a 429 page and Retry-After', async () => {
    const user = await insertUser(sso.knex);
    const app = await insertApplication(sso.knex);
    const browser = new Browser(sso.app, '10.2.0.1');
    const page = await browser.get(
      authorizeUrl({ client_id: app.clientId, redirect_uri: REDIRECT_URI, response_type: 'code' }),
    );
    const action = formActionFrom(page.body);
    const csrf = csrfFrom(page.body);
    for (let i = 0; i < MAX_FAILURES; i++) {
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

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CursorCodec, fingerprint } from './cursor';
import { pageRequest, toPage } from './page';

const codec = new CursorCodec('a-test-secret-of-enough-length');
const rules = { defaultSize: 10, maxSize: 50 };

test('a cursor round-trips its keyset position, size and fingerprint', () => {
  const id = codec.encode({ k: ['abc', 3], s: 20, f: 'fp' });
  assert.deepEqual(codec.decode(id), { k: ['abc', 3], s: 20, f: 'fp' });
});

test('a tampered cursor is BAD_USER_INPUT', () => {
  const id = codec.encode({ k: ['abc'], s: 20, f: 'fp' });
  const [payload, signature] = id.split('.');
  const forged = Buffer.from(JSON.stringify([['zzz'], 20, 'fp'])).toString('base64url');
  for (const bad of [`${forged}.${signature}`, `${payload}.AAAA`, 'garbage', `${payload}`]) {
    assert.throws(
      () => codec.decode(bad),
      (e: any) => e.extensions.code === 'BAD_USER_INPUT',
    );
  }
});

test('any change to any character of a cursor is refused, including padding bits of the last one', () => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  for (let n = 0; n < 20; n++) {
    const id = codec.encode({ k: [`key-${n}`, n], s: 10, f: 'fp' });
    for (const position of [id.length - 1, id.length - 2, id.indexOf('.') - 1, 0]) {
      for (const c of alphabet) {
        if (c === id[position]) continue;
        const altered = `${id.slice(0, position)}${c}${id.slice(position + 1)}`;
        assert.throws(() => codec.decode(altered), /pageId is not valid/, `accepted ${altered}`);
      }
    }
  }
});

test('a cursor signed with another secret is refused', () => {
  const other = new CursorCodec('another-secret-of-enough-length');
  assert.throws(() => codec.decode(other.encode({ k: [1], s: 1, f: 'x' })), /pageId is not valid/);
});

test('pageSize defaults, is bounded, and a cursor of other filters is refused', () => {
  assert.equal(pageRequest(codec, {}, rules, 'f').size, 10);
  assert.equal(pageRequest(codec, { pageSize: 50 }, rules, 'f').size, 50);
  for (const pageSize of [0, -1, 51]) {
    assert.throws(
      () => pageRequest(codec, { pageSize }, rules, 'f'),
      (e: any) => e.extensions.code === 'BAD_USER_INPUT',
    );
  }
  const next = codec.encode({ k: [1], s: 5, f: fingerprint('devices', { onboarded: true }) });
  assert.equal(
    pageRequest(codec, { pageId: next }, rules, fingerprint('devices', { onboarded: true })).size,
    5,
  );
  assert.throws(
    () => pageRequest(codec, { pageId: next }, rules, fingerprint('devices', { onboarded: false })),
    /another query/,
  );
});

test('toPage gives next only when an extra row was fetched', () => {
  const request = { size: 2, after: null, fingerprint: 'f' };
  const full = toPage(codec, request, [{ id: 1 }, { id: 2 }, { id: 3 }], (r) => [r.id], null);
  assert.equal(full.list.length, 2);
  assert.deepEqual(codec.decode(full.next!).k, [2]);
  const last = toPage(codec, request, [{ id: 1 }], (r) => [r.id], null);
  assert.equal(last.next, null);
});

test('fingerprint ignores key order and absent values', () => {
  assert.equal(fingerprint('q', { a: 1, b: null, c: [1, 2] }), fingerprint('q', { c: [1, 2], a: 1 }));
  assert.notEqual(fingerprint('q', { a: 1 }), fingerprint('q', { a: 2 }));
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { embeddedUrl, socketDirFor } from './embedded';

test('the embedded server takes its socket in the cluster folder when the path fits a socket address', () => {
  assert.equal(socketDirFor('/work/app/.data/pg', 54329), '/work/app/.data/pg');
  const deep = `/${'d'.repeat(86)}/pg`; // 90 bytes, + "/.s.PGSQL.54329" = 105 > 103
  assert.equal(socketDirFor(deep, 54329), undefined);
  const fits = `/${'d'.repeat(84)}/pg`; // 88 bytes, + 15 = 103
  assert.equal(socketDirFor(fits, 54329), fits);
});

test('a relative folder, or one PostgreSQL would split or unquote in unix_socket_directories, gets no socket', () => {
  for (const dir of ['/a b/pg', '/a,b/pg', "/a'b/pg", '/a"b/pg', '/a\\b/pg', '.data/pg'])
    assert.equal(socketDirFor(dir, 54329), undefined, dir);
});

test('the URL names the socket folder as its host, percent-encoded, or 127.0.0.1 without one', () => {
  assert.equal(
    embeddedUrl(54329, 'pw-1', '/work/app/.data/pg'),
    'postgres://postgres:pw-1@%2Fwork%2Fapp%2F.data%2Fpg:54329/postgres',
  );
  assert.equal(embeddedUrl(54329, 'a/b:c'), 'postgres://postgres:a%2Fb%3Ac@127.0.0.1:54329/postgres');
});

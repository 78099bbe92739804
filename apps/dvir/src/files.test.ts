import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver';
import { scratchDir } from '@fleetgraph/testing';
import { D, fixtureImages, startDvirHarness, type DvirHarness } from './testing/fixture';
import { sniffContentType } from './data/files/sniff';
import { localStorage, s3Storage } from './data/files/storage';
import { UrlSigner } from './data/files/signing';
import { fileServiceFor } from './data/files/index';

const ok = (res: any) => {
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  assert.ok(res.data);
  return res.data;
};
const fileUrlOf = async (h: DvirHarness, id: string): Promise<string> =>
  ok(
    await h.as(h.facts['fleet-core'].alice)(`query($id: ID!) { dvirAttachment(id: $id) { fileUrl } }`, {
      id,
    }),
  ).dvirAttachment.fileUrl;

test('content types come from the bytes', async () => {
  const { png, jpeg } = await fixtureImages();
  assert.equal(sniffContentType(png), 'image/png');
  assert.equal(sniffContentType(jpeg), 'image/jpeg');
  assert.equal(sniffContentType(Buffer.from('RIFF\0\0\0\0WEBPVP8 ')), 'image/webp');
  assert.equal(sniffContentType(Buffer.from('%PDF-1.7\n')), 'application/pdf');
  assert.equal(sniffContentType(Buffer.from('hello')), 'application/octet-stream');
});

test('URL signatures are bound to the file and expire (injected clock)', () => {
  let now = 1_000_000_000_000;
  const signer = new UrlSigner('a-secret-of-enough-length', 300, () => now);
  const { exp, sig } = signer.sign(D.attachment(1));
  assert.equal(signer.verify(D.attachment(1), String(exp), sig), 'ok');
  assert.equal(signer.verify(D.attachment(2), String(exp), sig), 'invalid');
  assert.equal(signer.verify(D.attachment(1), String(exp + 1), sig), 'invalid');
  assert.equal(signer.verify(D.attachment(1), String(exp), sig.slice(1) + 'A'), 'invalid');
  assert.equal(signer.verify(D.attachment(1), undefined, sig), 'invalid');
  now += 299_000;
  assert.equal(signer.verify(D.attachment(1), String(exp), sig), 'ok');
  now += 1_000;
  assert.equal(signer.verify(D.attachment(1), String(exp), sig), 'expired');
});

test('local storage keeps bytes under its root and refuses keys outside it', async () => {
  const storage = localStorage(scratchDir('dvir-local'));
  await storage.put('sha256/ab/abc', Buffer.from('xyz'), 'text/plain');
  assert.equal(String(await storage.get('sha256/ab/abc')), 'xyz');
  assert.equal(await storage.get('sha256/ab/none'), null);
  await assert.rejects(storage.put('../escape', Buffer.from('x'), 'text/plain'));
});

describe('local storage: files served by the dvir app', () => {
  let h: DvirHarness;
  before(async () => {
    h = await startDvirHarness('dvir-files-local');
  });
  after(async () => h?.close());

  test('a signed URL serves the file with its type and name', async () => {
    const url = new URL(await fileUrlOf(h, D.attachment(1)));
    assert.equal(url.origin, 'http://dvir.test');
    const res = await h.app.inject({ method: 'GET', url: url.pathname + url.search });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'image/png');
    assert.match(String(res.headers['content-disposition']), /^inline; filename="walkaround\.png"/);
    const { png } = await fixtureImages();
    assert.deepEqual(new Uint8Array(res.rawPayload), png);
    const size = ok(
      await h.as(h.facts['fleet-core'].alice)(`query($id: ID!) { dvirAttachment(id: $id) { byteSize } }`, {
        id: D.attachment(1),
      }),
    );
    assert.equal(size.dvirAttachment.byteSize, res.rawPayload.byteLength);
    const jpeg = new URL(await fileUrlOf(h, D.attachment(11)));
    const photo = await h.app.inject({ method: 'GET', url: jpeg.pathname + jpeg.search });
    assert.equal(photo.headers['content-type'], 'image/jpeg');
  });

  test('an altered URL is refused with 403', async () => {
    const url = new URL(await fileUrlOf(h, D.attachment(1)));
    const sig = url.searchParams.get('sig')!;
    const exp = url.searchParams.get('exp')!;
    const cases = [
      `/files/${D.attachment(2)}?exp=${exp}&sig=${sig}`,
      `/files/${D.attachment(1)}?exp=${Number(exp) + 3600}&sig=${sig}`,
      `/files/${D.attachment(1)}?exp=${exp}&sig=${sig.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`,
      `/files/${D.attachment(1)}`,
    ];
    for (const path of cases) {
      const res = await h.app.inject({ method: 'GET', url: path });
      assert.equal(res.statusCode, 403, path);
      assert.equal(res.json().error, 'invalid_signature');
    }
  });

  test('an expired URL is refused with 403', async () => {
    const url = new URL(await fileUrlOf(h, D.attachment(1)));
    h.clock.now += (h.config.fileUrlTtlS + 1) * 1000;
    try {
      const res = await h.app.inject({ method: 'GET', url: url.pathname + url.search });
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().error, 'url_expired');
    } finally {
      h.clock.now -= (h.config.fileUrlTtlS + 1) * 1000;
    }
  });

  test('the file-URL key is a secret of its own: a URL signed with a key derived from PAGING_SECRET is refused', async () => {
    const id = D.attachment(1);
    const pagingSecret = 'dvir-test-paging-secret-0123456789'; // the harness's PAGING_SECRET
    const derived = createHmac('sha256', pagingSecret).update('dvir file urls').digest('base64url');
    const { exp, sig } = new UrlSigner(derived, 300, () => h.clock.now).sign(id);
    const forged = await h.app.inject({ method: 'GET', url: `/files/${id}?exp=${exp}&sig=${sig}` });
    assert.equal(forged.statusCode, 403);
    assert.equal(forged.json().error, 'invalid_signature');
    const url = new URL(await fileUrlOf(h, id));
    assert.equal((await h.app.inject({ method: 'GET', url: url.pathname + url.search })).statusCode, 200);
  });

  test('a valid signature for a missing file is 404', async () => {
    const signer = new UrlSigner(h.config.fileUrlSecret, 300, () => h.clock.now);
    for (const id of [D.attachment(3), D.attachment(999)]) {
      const { exp, sig } = signer.sign(id);
      const res = await h.app.inject({ method: 'GET', url: `/files/${id}?exp=${exp}&sig=${sig}` });
      assert.equal(res.statusCode, 404, id);
      assert.equal(res.json().error, 'not_found');
    }
  });
});

describe('S3-compatible storage (s3rver)', () => {
  let server: any;
  let endpoint: string;
  let h: DvirHarness;
  before(async () => {
    server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: scratchDir('dvir-s3rver'),
    });
    const address = await server.run();
    endpoint = `http://127.0.0.1:${address.port}`;
    h = await startDvirHarness('dvir-files-s3', {
      DVIR_S3_ENDPOINT: endpoint,
      DVIR_S3_BUCKET: 'dvir-test',
      DVIR_S3_ACCESS_KEY_ID: 'S3RVER',
      DVIR_S3_SECRET_ACCESS_KEY: 'S3RVER',
    });
  });
  after(async () => {
    await h?.close();
    await server?.close();
  });

  test('the storage interface puts and gets objects', async () => {
    const storage = s3Storage({
      endpoint,
      bucket: 'dvir-unit',
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    });
    await storage.put('sha256/aa/aaa', Buffer.from('hello'), 'text/plain');
    assert.equal(String(await storage.get('sha256/aa/aaa')), 'hello');
    assert.equal(await storage.get('sha256/aa/missing'), null);
    const published = s3Storage({
      endpoint,
      publicEndpoint: 'http://files.example:9000',
      bucket: 'dvir-unit',
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    });
    const url = await published.presign!('sha256/aa/aaa', {
      contentType: 'text/plain',
      filename: 'a.txt',
      ttlS: 60,
    });
    assert.ok(url.startsWith('http://files.example:9000/dvir-unit/sha256/aa/aaa?'), url);
  });

  test('fileUrl is a presigned URL that serves the stored bytes', async () => {
    const url = await fileUrlOf(h, D.attachment(1));
    assert.ok(url.startsWith(`${endpoint}/dvir-test/sha256/`), url);
    assert.match(url, /X-Amz-Signature=/);
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
    assert.match(String(res.headers.get('content-disposition')), /walkaround\.png/);
    const { png } = await fixtureImages();
    assert.deepEqual(new Uint8Array(await res.arrayBuffer()), png);
    // (Signature checks of presigned URLs are the object store's: s3rver accepts altered ones.)
    assert.match(url, /X-Amz-Expires=300/);
  });

  test('the dvir file route also reads from S3', async () => {
    const signer = new UrlSigner(h.config.fileUrlSecret, 300, () => h.clock.now);
    const { exp, sig } = signer.sign(D.attachment(2));
    const res = await h.app.inject({ method: 'GET', url: `/files/${D.attachment(2)}?exp=${exp}&sig=${sig}` });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'image/png');
  });
});

describe('downloads: streamed in bounded memory, limited per address', () => {
  let h: DvirHarness;
  let base: string;
  let path: string;
  const SIZE = 64 * 1024 * 1024;
  before(async () => {
    h = await startDvirHarness('dvir-files-downloads', {
      DVIR_FILES_PER_MINUTE: '12',
      DVIR_FILES_CONCURRENT_PER_ADDRESS: '5',
    });
    // A 64 MB document on attachment 3 (which has no file in the fixture).
    const big = Buffer.alloc(SIZE, 7);
    big.write('%PDF-1.7\n');
    const stored = await fileServiceFor(h.config).store(big);
    await h.knex('dvir.attachments').where('id', D.attachment(3)).update({
      storage_key: stored.storageKey,
      byte_size: stored.byteSize,
      content_type: stored.contentType,
    });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    const url = new URL(await fileUrlOf(h, D.attachment(3)));
    path = url.pathname + url.search;
  });
  after(async () => h?.close());

  test('five concurrent downloads of a 64 MB file never hold a copy of it in memory', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const baseline = process.memoryUsage().arrayBuffers;
    let peak = 0;
    let chunks = 0;
    const download = () =>
      new Promise<number>((resolve, reject) => {
        get(base + path, (response) => {
          assert.equal(response.statusCode, 200);
          let received = 0;
          response.on('data', (chunk: Buffer) => {
            received += chunk.length;
            if (++chunks % 200 === 0) {
              gc();
              peak = Math.max(peak, process.memoryUsage().arrayBuffers - baseline);
            }
          });
          response.on('end', () => resolve(received));
          response.on('error', reject);
        }).on('error', reject);
      });
    const received = await Promise.all(Array.from({ length: 5 }, download));
    assert.deepEqual(received, Array(5).fill(SIZE));
    assert.ok(peak < SIZE / 2, `${(peak / 1e6).toFixed(1)} MB held at the peak`);
  });

  test('past the downloads one address may run at once, or start in a minute: 429 with Retry-After', async () => {
    const held = await Promise.all(
      Array.from(
        { length: 5 },
        () =>
          new Promise<IncomingMessage>((resolve) => {
            get(base + path, (response) => {
              response.pause();
              resolve(response);
            });
          }),
      ),
    );
    const sixth = await fetch(base + path);
    assert.equal(sixth.status, 429);
    assert.equal(sixth.headers.get('retry-after'), '1');
    const refusal = (await sixth.json()) as { error_description: string };
    assert.match(refusal.error_description, /At most 5 downloads run at once per address/);
    for (const response of held) response.destroy();
    const small = new URL(await fileUrlOf(h, D.attachment(1)));
    const statuses: number[] = [];
    for (let i = 0; i < 13; i++) {
      const res = await h.app.inject({
        method: 'GET',
        url: small.pathname + small.search,
        remoteAddress: '10.9.9.9',
      });
      statuses.push(res.statusCode);
    }
    assert.deepEqual(statuses, [...Array(12).fill(200), 429], 'a fresh address starts 12 downloads a minute');
  });
});

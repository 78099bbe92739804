/**
 * SSO benchmark, one run, same machine:
 *   - raw jose RS256 signatures per second (the same claims and key size as the SSO's tokens);
 *   - refresh-grant tokens per second through HTTP (rotation, revocation bookkeeping, signing);
 *   - password-grant tokens per second (argon2id bound).
 * Each phase runs CONCURRENCY independent loops for SECONDS seconds. The HTTP phases' client runs
 * in a worker thread (form-post-worker.ts), so the SSO's event loop serves requests only, as it
 * would in production; the three share the machine's cores with PostgreSQL.
 *
 *   npx tsx tools/bench/src/sso.ts        (BENCH_SECONDS default 5, BENCH_CONCURRENCY default 8)
 *
 * The refresh grant against its peer, node-oidc-provider, interleaved at 8 and 32 in flight, each
 * server in its own process: tools/bench/src/sso-peers.ts.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { SignJWT, generateKeyPair } from 'jose';
import { createKnex } from '@fleetgraph/db';
import { buildApp, hashPassword, loadSsoConfig } from '@fleetgraph/sso';
import { freePort } from '@fleetgraph/testing';
import { benchDatabase } from './database';
import type { FormLoadInput } from './form-post-worker';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

function report(label: string, done: number, ms: number): number {
  const perSecond = done / (ms / 1000);
  console.log(
    `${label.padEnd(44)} ${perSecond.toFixed(0).padStart(7)} /s   (${done} in ${SECONDS} s, concurrency ${CONCURRENCY})`,
  );
  return perSecond;
}

async function rate(label: string, loop: (worker: number) => Promise<void>): Promise<number> {
  const deadline = performance.now() + SECONDS * 1000;
  let done = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      while (performance.now() < deadline) {
        await loop(worker);
        done++;
      }
    }),
  );
  return report(label, done, performance.now() - start);
}

/** Posts `forms` (one per loop) from a worker thread for SECONDS seconds. */
async function formRate(label: string, input: Omit<FormLoadInput, 'seconds'>): Promise<number> {
  // The worker is TypeScript: load it through tsx's API (a worker does not inherit the loader).
  const entry = new URL('./form-post-worker.ts', import.meta.url).href;
  const worker = new Worker(
    `import('tsx/esm/api').then((tsx) => tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`,
    { eval: true, workerData: { ...input, seconds: SECONDS } satisfies FormLoadInput },
  );
  const { done, ms } = await new Promise<{ done: number; ms: number }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return report(label, done, ms);
}

const database = await benchDatabase('sso_bench');
const port = await freePort();
const config = loadSsoConfig({
  SSO_PORT: String(port),
  SSO_ISSUER: `http://localhost:${port}`,
  LOG_LEVEL: 'warn',
});
const app = await buildApp({ ...config, databaseUrl: database.url });
await app.listen({ port, host: '127.0.0.1' });
const knex = createKnex({ url: database.url });
const tokenUrl = `http://127.0.0.1:${port}/oauth/token`;
const post = async (form: Record<string, string>) => {
  const response = await fetch(tokenUrl, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  const body = (await response.json()) as Record<string, string>;
  if (response.status !== 200) throw new Error(`${form.grant_type}: ${JSON.stringify(body)}`);
  return body;
};

try {
  const password = 'bench-password-1';
  const users = await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, i) => ({
      id: randomUUID(),
      email: `bench${i}@fleetgraph.test`,
      password_hash: await hashPassword(password),
      full_name: `Bench ${i}`,
    })),
  );
  await knex('sso.users').insert(users);

  console.log(`SSO benchmark on ${process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded PostgreSQL'}`);
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048 });
  const raw = await rate('raw jose RS256 signatures', async () => {
    const iat = Math.floor(Date.now() / 1000);
    await new SignJWT({
      scope: 'public',
      user: { uid: users[0]!.id, email: users[0]!.email, full_name: 'Bench 0' },
    })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', provider: 'fleetgraph-sso', kid: 'bench' })
      .setIssuer(config.issuer)
      .setSubject(users[0]!.id)
      .setAudience(config.audience)
      .setJti(randomUUID())
      .setIssuedAt(iat)
      .setExpirationTime(iat + 7200)
      .sign(privateKey);
  });

  const refreshTokens = await Promise.all(
    users.map(
      async (u) => (await post({ grant_type: 'password', username: u.email, password })).refresh_token!,
    ),
  );
  const refresh = await formRate('refresh grant (HTTP, rotation, RS256)', {
    url: tokenUrl,
    forms: refreshTokens.map((token) =>
      new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token }).toString(),
    ),
    chain: true,
  });
  const passwordGrant = await formRate('password grant (HTTP, argon2id m=19MiB t=2)', {
    url: tokenUrl,
    forms: users.map((u) =>
      new URLSearchParams({ grant_type: 'password', username: u.email, password }).toString(),
    ),
    chain: false,
  });
  console.log(`refresh grant / raw signatures = ${(refresh / raw).toFixed(2)} (goal >= 0.70)`);
  console.log(`password grant / raw signatures = ${(passwordGrant / raw).toFixed(3)}`);
} finally {
  await knex.destroy();
  await app.close();
  await database.close();
}

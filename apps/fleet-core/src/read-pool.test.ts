/**
 * Reads from a standby (DATABASE_READ_URL), through HTTP against real PostgreSQL. The "standby" is
 * a copy of the primary database taken at one instant (CREATE DATABASE ... TEMPLATE) that refuses
 * writes (default_transaction_read_only), as a hot standby does: the primary then moves on, so the
 * copy is a standby lagging behind it. Answers that show the copy's rows, and the copy's
 * pg_stat_activity, prove where each statement went.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createKnex, createTestDatabase, migrateSchema, type Knex, type TestDatabase } from '@fleetgraph/db';
import { createTestIssuer, postGraphQL, type TestIssuer } from '@fleetgraph/testing';
import manifest from './manifest';
import { F } from './testing/fixture';

const PAGING_SECRET = 'a-paging-secret-shared-by-replicas';
const DEVICES = `query($p: ID) { devices(pageSize: 25, pageId: $p) { list { id serialNumber } next } }`;

let primary: TestDatabase;
let standbyUrl: string;
let standbyName: string;
let admin: Knex;
let issuer: TestIssuer;
/** Reads from the standby. */
let onStandby: { app: FastifyInstance; url: string };
/** Reads from the primary (no DATABASE_READ_URL), as a replica pointed at a standby with no lag. */
let onPrimary: { app: FastifyInstance; url: string };

async function start(env: Record<string, string>) {
  const config = manifest.loadConfig({
    SSO_ISSUER: issuer.issuer,
    LOG_LEVEL: 'silent',
    PAGING_SECRET,
    DATABASE_URL: primary.url,
    ...env,
  });
  const app = await manifest.buildApp({ ...config, databaseUrl: primary.url }, { jwks: issuer.jwks });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `${address}/graphql` };
}

async function query(target: { url: string }, text: string, variables: Record<string, unknown> = {}) {
  return postGraphQL(target.url, text, { token: await issuer.token(F.alice), variables });
}

/** Connections to a database by application name. */
async function connections(database: string): Promise<Record<string, number>> {
  const rows: { rows: Array<{ application_name: string; n: number }> } = await admin.raw(
    `select application_name, count(*) as n from pg_stat_activity
      where datname = ? and pid <> pg_backend_pid() group by application_name`,
    [database],
  );
  return Object.fromEntries(rows.rows.map((row) => [row.application_name, Number(row.n)]));
}

before(async () => {
  issuer = await createTestIssuer();
  primary = await createTestDatabase('read_pool');
  const setup = createKnex({ url: primary.url });
  try {
    await migrateSchema(setup, manifest.dbSchema, manifest.migrations);
    const fixture = await manifest.testFixture!();
    await fixture.load(setup);
  } finally {
    await setup.destroy();
  }
  // The standby: the primary as it is now (a template copy needs the primary idle), read-only.
  standbyName = `${primary.name}_standby`;
  admin = createKnex({ url: process.env.DATABASE_URL as string, pool: { min: 0, max: 1 } });
  await admin.raw(`create database ?? template ??`, [standbyName, primary.name]);
  await admin.raw(`alter database ?? set default_transaction_read_only = on`, [standbyName]);
  const url = new URL(primary.url);
  url.pathname = `/${standbyName}`;
  standbyUrl = url.toString();

  onStandby = await start({ DATABASE_READ_URL: standbyUrl });
  onPrimary = await start({});
});

after(async () => {
  await onStandby?.app.close();
  await onPrimary?.app.close();
  await admin?.raw(`drop database if exists ?? with (force)`, [standbyName]);
  await admin?.destroy();
  await primary?.drop();
});

describe('reads from a standby (DATABASE_READ_URL)', () => {
  test('requests read from the standby, and nothing else of the app touches it (migrations, revocations)', async () => {
    // The primary moves on after the copy: a serial number changes there only.
    const [first] = F.depotDevices;
    const writer = createKnex({ url: primary.url, pool: { min: 0, max: 1 } });
    try {
      await writer('fleet.devices').where('id', first).update({ serial_number: 'CHANGED-ON-PRIMARY' });
    } finally {
      await writer.destroy();
    }
    const fromStandby = await query(onStandby, DEVICES);
    assert.equal(fromStandby.errors, undefined);
    assert.equal(fromStandby.data.devices.list[0].id, first);
    assert.notEqual(fromStandby.data.devices.list[0].serialNumber, 'CHANGED-ON-PRIMARY', 'the lagging copy');
    const fromPrimary = await query(onPrimary, DEVICES);
    assert.equal(fromPrimary.data.devices.list[0].serialNumber, 'CHANGED-ON-PRIMARY');

    // On the standby: the read pool only, named so an operator finds it there. The app started
    // although the standby refuses writes: its migrations ran on the primary.
    const standby = await connections(standbyName);
    assert.ok((standby['fleet-core-reads'] ?? 0) > 0, JSON.stringify(standby));
    assert.deepEqual(Object.keys(standby), ['fleet-core-reads']);
    const onThePrimary = await connections(primary.name);
    assert.equal(onThePrimary['fleet-core-reads'], undefined, 'no read pool on the primary');
  });

  test('readiness checks both pools', async () => {
    const response = await fetch(onStandby.url.replace(/\/graphql$/, '/readyz'));
    assert.equal(response.status, 200);
    const body = (await response.json()) as Record<string, unknown>;
    assert.match(JSON.stringify(body), /database-reads/);
  });

  test('a cursor walk stays exact when its pages come from replicas at different positions', async () => {
    // Page 1 from the lagging standby; then, on the primary, the last device of page 1 and the
    // first one after it go, and a device appears past the cursor; page 2 from the primary.
    const page1 = await query(onStandby, DEVICES);
    const ids1: string[] = page1.data.devices.list.map((d: { id: string }) => d.id);
    const last = ids1.at(-1)!;
    const writer = createKnex({ url: primary.url, pool: { min: 0, max: 1 } });
    let removedNext: string;
    try {
      const [next] = await writer('fleet.devices')
        .where('organization_id', F.orgA)
        .where('id', '>', last)
        .orderBy('id')
        .limit(1)
        .pluck('id');
      removedNext = next as string;
      await writer('fleet.group_devices').whereIn('device_id', [last, removedNext]).delete();
      await writer('fleet.device_vehicle_sessions').whereIn('device_id', [last, removedNext]).delete();
      await writer('fleet.devices').whereIn('id', [last, removedNext]).update({ current_vehicle_id: null });
      await writer('fleet.devices').whereIn('id', [last, removedNext]).delete();
    } finally {
      await writer.destroy();
    }
    const page2 = await query(onPrimary, DEVICES, { p: page1.data.devices.next });
    assert.equal(page2.errors, undefined, JSON.stringify(page2.errors));
    const ids2: string[] = page2.data.devices.list.map((d: { id: string }) => d.id);
    assert.ok(ids2.length > 0);
    assert.ok(
      ids2.every((id) => id > last),
      'page 2 starts after the position page 1 ended at, whatever the replica saw',
    );
    assert.ok(!ids2.includes(removedNext), 'a row gone on the fresher replica is not served');
    // And the other way round: a cursor minted on the primary continues on the lagging standby.
    const back = await query(onStandby, DEVICES, { p: page2.data.devices.next });
    assert.equal(back.errors, undefined);
    assert.ok(back.data.devices.list.every((d: { id: string }) => d.id > ids2.at(-1)!));
  });
});

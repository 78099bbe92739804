/**
 * Reads from a real streaming hot standby: a primary and a standby made with pg_basebackup
 * (libs/testing standby.ts), fleet-core over HTTP with DATABASE_READ_URL on the standby. The
 * standby's own statistics show the reads; pausing its replay makes real replication lag.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { createKnex, migrateSchema } from '@fleetgraph/db';
import {
  createTestIssuer,
  postGraphQL,
  replicatedPostgresBinaries,
  startReplicatedPostgres,
  type ReplicatedPostgres,
  type TestIssuer,
} from '@fleetgraph/testing';
import manifest from './manifest';
import { F } from './testing/fixture';

const DATABASE = 'fleetgraph';
const DEVICES = `query($p: ID) { devices(pageSize: 25, pageId: $p) { list { id serialNumber } next } }`;

let cluster: ReplicatedPostgres;
let issuer: TestIssuer;
let app: FastifyInstance;
let graphql: string;

async function rows(url: string, text: string, values: unknown[] = []): Promise<any[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

const primary = () => cluster.urlOf('primary', DATABASE);
const standby = () => cluster.urlOf('standby', DATABASE);
const query = async (text: string, variables: Record<string, unknown> = {}) =>
  postGraphQL(graphql, text, { token: await issuer.token(F.alice), variables });
/** Transactions the standby's fleetgraph database has committed (reads included). */
const standbyTransactions = async () =>
  Number(
    (
      await rows(cluster.standbyUrl, 'select xact_commit from pg_stat_database where datname = $1', [
        DATABASE,
      ])
    )[0].xact_commit,
  );

describe(
  'reads from a streaming hot standby',
  { skip: !replicatedPostgresBinaries() && 'no PostgreSQL server binaries' },
  () => {
    before(async () => {
      cluster = await startReplicatedPostgres();
      issuer = await createTestIssuer();
      await rows(cluster.primaryUrl, `create database ${DATABASE}`);
      const setup = createKnex({ url: primary() });
      try {
        await migrateSchema(setup, manifest.dbSchema, manifest.migrations);
        await (await manifest.testFixture!()).load(setup);
      } finally {
        await setup.destroy();
      }
      await cluster.caughtUp();
      const config = manifest.loadConfig({
        SSO_ISSUER: issuer.issuer,
        LOG_LEVEL: 'silent',
        PAGING_SECRET: 'a-paging-secret-shared-by-replicas',
        DATABASE_URL: primary(),
        DATABASE_READ_URL: standby(),
      });
      app = await manifest.buildApp({ ...config, databaseUrl: primary() }, { jwks: issuer.jwks });
      graphql = `${await app.listen({ port: 0, host: '127.0.0.1' })}/graphql`;
    });

    after(async () => {
      await app?.close();
      await cluster?.stop();
    });

    test('requests are served by the standby: its statistics count them, the primary has no read pool', async () => {
      const before = await standbyTransactions();
      for (let i = 0; i < 5; i++) {
        const answer = await query(DEVICES);
        assert.equal(answer.errors, undefined, JSON.stringify(answer.errors));
        assert.equal(answer.data.devices.list.length, 25);
      }
      // What the read pool's connections last ran, on the standby.
      const statements = await rows(
        cluster.standbyUrl,
        `select query from pg_stat_activity where datname = $1 and application_name = 'fleet-core-reads'`,
        [DATABASE],
      );
      assert.ok(
        statements.some((r) => /"fleet"\."devices"/.test(r.query)),
        JSON.stringify(statements),
      );
      // pg_stat_database counts them once the backends report (an idle backend does within seconds).
      for (let waited = 0; (await standbyTransactions()) < before + 5; waited += 200) {
        assert.ok(waited < 15_000, 'the standby counts the reads in pg_stat_database');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const names = async (url: string) =>
        (await rows(url, 'select application_name from pg_stat_activity where datname = $1', [DATABASE])).map(
          (r) => r.application_name as string,
        );
      assert.ok((await names(cluster.standbyUrl)).includes('fleet-core-reads'));
      assert.ok(!(await names(cluster.primaryUrl)).includes('fleet-core-reads'));
      assert.ok(
        (await names(cluster.standbyUrl)).every((name) => name === 'fleet-core-reads'),
        'nothing else of the app (revocations LISTEN, migrations) is on the standby',
      );
    });

    test('with replay paused, a write on the primary is invisible until the standby catches up; paging stays exact', async () => {
      const page1 = await query(DEVICES);
      const ids1: string[] = page1.data.devices.list.map((d: { id: string }) => d.id);
      await cluster.pauseReplay();
      try {
        await rows(primary(), `update fleet.devices set serial_number = 'WRITTEN-ON-PRIMARY' where id = $1`, [
          ids1[0],
        ]);
        // The cursor of page 1 continues on the lagging standby from its position.
        const lagging = await query(DEVICES);
        assert.notEqual(lagging.data.devices.list[0].serialNumber, 'WRITTEN-ON-PRIMARY', 'not replayed yet');
        const page2 = await query(DEVICES, { p: page1.data.devices.next });
        const ids2: string[] = page2.data.devices.list.map((d: { id: string }) => d.id);
        assert.ok(ids2.length > 0 && ids2.every((id) => id > ids1.at(-1)!));
      } finally {
        await cluster.resumeReplay();
      }
      await cluster.caughtUp();
      const caughtUp = await query(DEVICES);
      assert.equal(caughtUp.data.devices.list[0].serialNumber, 'WRITTEN-ON-PRIMARY');
    });
  },
);

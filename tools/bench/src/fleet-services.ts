/**
 * fleet-core services benchmark: seeds the demo data at a scale (default 100:
 * ~7500 devices, ~9000 alerts) without trips, then through fleet-core's real HTTP endpoint
 * (signed token of the demo ADMIN, visibility SQL, keyset cursors) prints p50/p99 of:
 * Group.alerts of the root group (page 1 and a page deep into the list), alertFeedbacks,
 * bookings with personal data, alertTemplates with attachments, and 100 devices with their
 * alerts, alert state, current privacy and mode (nested, batched).
 *
 *   npx tsx tools/bench/src/fleet-services.ts     (BENCH_SCALE, default 100; BENCH_N, default 100)
 */
import { createKnex, migrateSchema } from '@fleetgraph/db';
import { migrations as ssoMigrations, SSO_SCHEMA } from '@fleetgraph/sso';
import { buildApp, loadFleetCoreConfig } from '@fleetgraph/fleet-core';
import { DEMO_EMAIL, seedDemo } from '@fleetgraph/seed';
import { createTestIssuer, postGraphQL } from '@fleetgraph/testing';
import { benchDatabase } from './database';
import { measure, printRow } from './harness';

const SCALE = Number(process.env.BENCH_SCALE ?? 100);
const N = Number(process.env.BENCH_N ?? 100);

const database = await benchDatabase('bench_fleet_services');
const issuer = await createTestIssuer();
const config = loadFleetCoreConfig({ SSO_ISSUER: issuer.issuer, LOG_LEVEL: 'silent' });
const app = await buildApp({ ...config, databaseUrl: database.url }, { jwks: issuer.jwks }); // migrates
const knex = createKnex({ url: database.url });
try {
  await migrateSchema(knex, SSO_SCHEMA, ssoMigrations); // seeded accounts are also SSO users
  const started = Date.now();
  await seedDemo(knex, { scale: SCALE, tripsPerDevice: 0 });
  const alerts = Number(((await knex('fleet.vehicle_alerts').count('* as n').first()) as { n: string }).n);
  console.log(
    `seeded scale ${SCALE} (${alerts} vehicle alerts) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  await knex.raw('analyze');
  const demo = (await knex('fleet.accounts').where({ email: DEMO_EMAIL }).first('id', 'full_name')) as {
    id: string;
    full_name: string;
  };
  const root = (await knex('fleet.groups as g')
    .join('fleet.group_accounts as m', 'm.group_id', 'g.id')
    .where('m.account_id', demo.id)
    .first('g.id')) as { id: string };

  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/graphql`;
  const token = await issuer.token(
    { uid: demo.id, email: DEMO_EMAIL, fullName: demo.full_name },
    { expiresIn: 3600 },
  );
  const call = async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await postGraphQL(url, query, { token, variables });
    if (res.errors) throw new Error(JSON.stringify(res.errors));
    return res.data as any;
  };

  const ask = (query: string, variables: Record<string, unknown> = {}) =>
    call(query, variables).then(() => {});
  const groupAlerts = `query($g: ID!, $p: ID) { group(id: $g) { alerts(pageSize: 50, pageId: $p) {
    next list { id type severity status startedAt device { id } } } } }`;
  // A cursor ~80% deep, reached by following next.
  let cursor: string | null = null;
  let seen = 0;
  while (seen < alerts * 0.8) {
    const page: { next: string | null; list: unknown[] } = (
      await call(groupAlerts.replace('pageSize: 50', 'pageSize: 500'), { g: root.id, p: cursor })
    ).group.alerts;
    seen += page.list.length;
    if (!page.next) break;
    cursor = page.next;
  }
  printRow('Group.alerts page 1', await measure(N, () => ask(groupAlerts, { g: root.id, p: null })));
  printRow(`Group.alerts after ${seen}`, await measure(N, () => ask(groupAlerts, { g: root.id, p: cursor })));
  printRow(
    'alertFeedbacks(status) + count',
    await measure(N, () => ask('{ alertFeedbacks(status: CONFIRMED) { count list { id alert { type } } } }')),
  );
  printRow(
    'bookings + personal data',
    await measure(N, () =>
      ask('{ bookings(pageSize: 100) { count list { id userEmail workshop { name } vehicle { plate } } } }'),
    ),
  );
  printRow(
    'alertTemplates + attachments',
    await measure(N, () => ask('{ alertTemplates { list { name attachments { count list { url } } } } }')),
  );
  printRow(
    '100 devices x alerts/state/profiles',
    await measure(N, () =>
      ask(`{ devices(pageSize: 100) { list { id alerts(pageSize: 5) { list { type } } alertsState { activeCount }
        profilePrivacy { level } profileMode { mode } } } }`),
    ),
  );
} finally {
  await knex.destroy();
  await app.close();
  await database.close();
}

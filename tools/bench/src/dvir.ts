/**
 * dvir benchmark: `inspectionReports` with answers and defects, 50 reports per page,
 * over 1M reports.
 *
 *   1. generates, with SQL generate_series in a throwaway bench database: one organization, a
 *      viewer member of a root group with BENCH_VEHICLES vehicles (default 2000) in groups of 100
 *      below it, one template version with 4 items, BENCH_REPORTS reports (default 1000000; one
 *      every 47 s, round-robin over the vehicles), 4 answers each, and a defect on every 25th
 *      report (OUT_OF_SERVICE on every 50th);
 *   2. straight to the dvir subgraph over HTTP (signed token, visibility SQL, keyset cursor),
 *      measures p50/p99 of page 1 and of a page 80% deep (cursor signed for that position, as a
 *      client following `next` would reach it), and prints the deep/first ratio (goal <= 1.5);
 *   3. prints the SQL statements per request for page sizes 10, 50 and 200 (constant);
 *   4. boots the whole platform on the demo data (demo login), adds BENCH_GATEWAY_REPORTS reports
 *      (default BENCH_REPORTS; 0 skips) for the demo account's vehicles, and measures the same
 *      query straight to dvir and through the gateway, page 1 and 80% deep.
 * No ANALYZE is run: plans are those of a database whose statistics are missing (autovacuum off).
 *
 *   npx tsx tools/bench/src/dvir.ts   (BENCH_REPORTS, BENCH_VEHICLES, BENCH_N default 100)
 */
import { performance } from 'node:perf_hooks';
import { createKnex, migrateSchema } from '@fleetgraph/db';
import { CursorCodec, fingerprint } from '@fleetgraph/paging';
import { subgraphManifest } from '@fleetgraph/subgraphs';
import { createStatementCounter, createTestIssuer, postGraphQL } from '@fleetgraph/testing';
import { benchDatabase } from './database';
import { measure, printRow, startBenchPlatform } from './harness';

const REPORTS = Number(process.env.BENCH_REPORTS ?? 1_000_000);
const VEHICLES = Number(process.env.BENCH_VEHICLES ?? 2000);
const N = Number(process.env.BENCH_N ?? 100);
/** Reports generated for the gateway run (on the demo platform; 0 skips it). */
const GATEWAY_REPORTS = Number(process.env.BENCH_GATEWAY_REPORTS ?? REPORTS);
const PAGE = 50;
const SECRET = 'dvir-bench-paging-secret-0123456789';
const ORG = '0d100000-0000-4000-8000-000000000001';
const ROOT = '0d100000-0000-4000-8000-000000000002';
const TEMPLATE = '0d100000-0000-4000-8000-000000000003';
const VIEWER = {
  uid: '0d100000-0000-4000-8000-000000000004',
  email: 'bench@dvir.example',
  fullName: 'Bench',
};
const NOW = '2026-11-20T00:00:00Z';
const vehicleId = (n: string) => `('0d200000-0000-4000-8000-' || lpad(to_hex(${n}), 12, '0'))::uuid`;
const groupId = (n: string) => `('0d300000-0000-4000-8000-' || lpad(to_hex(${n}), 12, '0'))::uuid`;
const itemId = (n: string) => `('0d400000-0000-4000-8000-' || lpad(to_hex(${n}), 12, '0'))::uuid`;
const reportId = (n: string) => `('0d500000-0000-4000-8000-' || lpad(to_hex(${n}), 12, '0'))::uuid`;

/** Steps 1-3: a generated fleet on the dvir subgraph alone (statement counter attached). */
async function standalone(): Promise<void> {
  const database = await benchDatabase('bench_dvir');
  const issuer = await createTestIssuer();
  const statements = createStatementCounter();
  const fleetCore = await subgraphManifest('fleet-core');
  const dvir = await subgraphManifest('dvir');
  const knex = createKnex({ url: database.url });
  await migrateSchema(knex, fleetCore.dbSchema, fleetCore.migrations);
  const config = dvir.loadConfig({ SSO_ISSUER: issuer.issuer, LOG_LEVEL: 'silent', PAGING_SECRET: SECRET });
  const app = await dvir.buildApp(
    { ...config, databaseUrl: database.url },
    { jwks: issuer.jwks, onQuery: statements.record },
  );
  try {
    const t0 = performance.now();
    const groups = Math.ceil(VEHICLES / 100);
    await knex.raw(`insert into fleet.organizations (id, name) values (?, 'Bench Org')`, [ORG]);
    await knex.raw(`insert into fleet.accounts (id, organization_id, email, full_name) values (?, ?, ?, ?)`, [
      VIEWER.uid,
      ORG,
      VIEWER.email,
      VIEWER.fullName,
    ]);
    await knex.raw(`insert into fleet.groups (id, organization_id, label) values (?, ?, 'Bench root')`, [
      ROOT,
      ORG,
    ]);
    await knex.raw(
      `insert into fleet.groups (id, organization_id, label) select ${groupId('g')}, ?, 'Depot ' || g from generate_series(1, ?) g`,
      [ORG, groups],
    );
    await knex.raw(
      `insert into fleet.group_parents (group_id, parent_id) select id, ? from fleet.groups where id <> ?`,
      [ROOT, ROOT],
    );
    await knex.raw(`insert into fleet.group_closure select id, id, 0 from fleet.groups`);
    await knex.raw(`insert into fleet.group_closure select ?::uuid, id, 1 from fleet.groups where id <> ?`, [
      ROOT,
      ROOT,
    ]);
    await knex.raw(`insert into fleet.group_accounts values (?, ?)`, [ROOT, VIEWER.uid]);
    await knex.raw(
      `insert into fleet.vehicles (id, organization_id, vehicle_type, fuel_type)
     select ${vehicleId('n')}, ?, 'VAN', 'DIESEL' from generate_series(1, ?) n`,
      [ORG, VEHICLES],
    );
    await knex.raw(
      `insert into fleet.group_vehicles select ${groupId('1 + (n - 1) / 100')}, ${vehicleId('n')} from generate_series(1, ?) n`,
      [VEHICLES],
    );
    await knex.raw(
      `insert into dvir.inspection_templates (id, version, organization_id, name, vehicle_type, default_language, translations, created_at)
     values (?, 1, ?, 'Daily check', 'VAN', 'EN', '{"FR": {"name": "Contrôle quotidien"}}', ?)`,
      [TEMPLATE, ORG, NOW],
    );
    await knex.raw(
      `insert into dvir.inspection_items (id, template_id, template_version, order_position, category, name, description, translations)
     select ${itemId('k')}, ?, 1, k, (array['EXTERIOR','BRAKES','TIRES','LIGHTS'])[k], (array['Body','Brakes','Tires','Lights'])[k],
            'Check it', jsonb_build_object('FR', jsonb_build_object('name', (array['Carrosserie','Freins','Pneus','Feux'])[k]))
       from generate_series(1, 4) k`,
      [TEMPLATE],
    );
    const r0 = performance.now();
    const BATCH = 250_000;
    for (let from = 1; from <= REPORTS; from += BATCH) {
      const to = Math.min(REPORTS, from + BATCH - 1);
      await knex.raw(
        `insert into dvir.inspection_reports (id, organization_id, vehicle_id, group_id, driver_id, template_id, template_version,
         vehicle_type, workflow_status, status, inspection_type, odometer, fuel_level, started_at, completed_at, created_at, updated_at)
       select ${reportId('n')}, ?, ${vehicleId('1 + n % ?')}, ${groupId('1 + (n % ?) / 100')}, null, ?, 1, 'VAN', 'REVIEWED',
              case when n % 50 = 0 then 'OUT_OF_SERVICE' when n % 25 = 0 then 'WITH_DEFECTS' else 'VALIDATED' end,
              case when n % 2 = 0 then 'PRE_TRIP' else 'POST_TRIP' end, 10000 + n % 90000, n % 100,
              t, t + interval '8 minutes', t, t
         from generate_series(?::int, ?::int) n, lateral (select ?::timestamptz - interval '47 seconds' * n as t) s`,
        [ORG, VEHICLES, VEHICLES, TEMPLATE, from, to, NOW],
      );
      await knex.raw(
        `insert into dvir.inspection_answers (id, report_id, organization_id, vehicle_id, group_id, item_id, result, comment, language,
         item_name, item_description, item_category, item_order_position, item_translations, created_at, updated_at)
       select gen_random_uuid(), r.id, r.organization_id, r.vehicle_id, r.group_id, it.id,
              case when it.order_position = 2 and r.status <> 'VALIDATED' then 'DEFECT' else 'OK' end, null, 'EN',
              it.name, it.description, it.category, it.order_position, it.translations, r.completed_at, r.completed_at
         from dvir.inspection_reports r cross join dvir.inspection_items it
        where r.id in (select ${reportId('n')} from generate_series(?::int, ?::int) n)`,
        [from, to],
      );
      await knex.raw(
        `insert into dvir.defects (id, organization_id, vehicle_id, group_id, description, status, out_of_service, inspection_item_id,
         inspection_answer_id, reported_in_report_id, created_at, updated_at)
       select gen_random_uuid(), a.organization_id, a.vehicle_id, a.group_id, 'Brake warning light on', 'OPEN',
              r.status = 'OUT_OF_SERVICE', a.item_id, a.id, a.report_id, a.created_at, a.created_at
         from dvir.inspection_answers a join dvir.inspection_reports r on r.id = a.report_id
        where a.result = 'DEFECT' and r.id in (select ${reportId('n')} from generate_series(?::int, ?::int) n)`,
        [from, to],
      );
      process.stderr.write(`  ${to} reports\n`);
    }
    const count = async (table: string) => Number((await knex(table).count('* as n').first())!.n);
    const [reports, answers, defects] = await Promise.all(
      ['dvir.inspection_reports', 'dvir.inspection_answers', 'dvir.defects'].map(count),
    );
    console.log(
      `generated ${reports} reports, ${answers} answers, ${defects} defects on ${VEHICLES} vehicles ` +
        `(reports in ${((performance.now() - r0) / 1000).toFixed(1)} s, total ${((performance.now() - t0) / 1000).toFixed(1)} s; no ANALYZE)`,
    );

    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/graphql`;
    const token = await issuer.token(VIEWER, { expiresIn: 3600 });
    const query = `query($n: Int, $p: ID) { inspectionReports(pageSize: $n, pageId: $p) { next list {
      id status workflowStatus inspectionType startedAt vehicle { id }
      inspectionAnswers(locale: FR) { list { id result resultLabel itemName itemCategoryLabel } }
      defects { list { id status description outOfService } } } } }`;
    const page = async (pageSize: number, pageId: string | null) => {
      const res = await postGraphQL(url, query, { token, variables: { n: pageSize, p: pageId } });
      if (res.errors) throw new Error(JSON.stringify(res.errors));
      return res.data.inspectionReports as {
        next: string | null;
        list: Array<{ startedAt: string; defects: { list: unknown[] } }>;
      };
    };

    // The cursor a client reaches after following `next` to 80% depth (same key, same signature).
    const depth = Math.floor(reports! * 0.8);
    const at = (
      await knex.raw(
        `select started_at, id from dvir.inspection_reports order by started_at desc, id desc offset ? limit 1`,
        [depth - 1],
      )
    ).rows[0];
    const deepCursor = new CursorCodec(SECRET).encode({
      k: [new Date(at.started_at).toISOString(), at.id],
      s: PAGE,
      f: fingerprint('inspectionReports', {}),
    });
    const deepPage = await page(PAGE, deepCursor);
    const firstPage = await page(PAGE, null);
    console.log(
      `page 1: ${firstPage.list.length} reports, ${firstPage.list.reduce((n, r) => n + r.defects.list.length, 0)} defects; ` +
        `deep page starts at ${deepPage.list[0]!.startedAt} (row ${depth + 1})`,
    );

    console.log(
      `inspectionReports(pageSize: ${PAGE}) with answers and defects, straight to dvir over HTTP, ${N} sequential requests per row:`,
    );
    const first = await measure(N, () => page(PAGE, null).then(() => {}));
    printRow('page 1', first);
    const deep = await measure(N, () => page(PAGE, deepCursor).then(() => {}));
    printRow(`page at row ${depth + 1}`, deep);
    console.log(
      `deep/first ratio: p50 ${(deep.p50 / first.p50).toFixed(2)}, p99 ${(deep.p99 / first.p99).toFixed(2)} (goal <= 1.5)`,
    );

    const perSize: string[] = [];
    for (const size of [10, 50, 200]) {
      statements.reset();
      await page(size, null);
      perSize.push(`pageSize ${size}: ${statements.count}`);
    }
    console.log(`SQL statements per request: ${perSize.join(', ')}`);

    const plan = await knex.raw(
      `explain (costs off) select r.id from dvir.inspection_reports r
      where (r.vehicle_id in (select vehicle_id from fleet_contract.account_visible_vehicles_v1 where account_id = ?)
             or r.group_id in (select group_id from fleet_contract.account_visible_groups_v1 where account_id = ?))
        and (r.started_at, r.id) < (?::timestamptz, ?::uuid) order by r.started_at desc, r.id desc limit 51`,
      [VIEWER.uid, VIEWER.uid, new Date(at.started_at).toISOString(), at.id],
    );
    console.log('plan of the deep page (root list):');
    for (const row of plan.rows as Array<Record<string, string>>) console.log(`  ${Object.values(row)[0]}`);
  } finally {
    await knex.destroy();
    await app.close();
    await database.close();
  }
}

if (REPORTS > 0) await standalone();

/**
 * Through the gateway: the whole platform on the demo data (demo login), with GATEWAY_REPORTS
 * more reports generated for the demo account's vehicles; the same query measured straight to
 * dvir and through the gateway, page 1 and a page 80% deep.
 */
if (GATEWAY_REPORTS > 0) {
  const bench = await startBenchPlatform({
    PAGING_SECRET: SECRET,
    RATE_LIMIT_PER_MINUTE: '0',
    MAX_COST: '100000000',
    MAX_TOKENS: '100000',
  });
  const db = createKnex({ url: bench.databaseUrl });
  try {
    const viewer = (await db('fleet_contract.accounts_v1')
      .where('email', 'demo@fleetgraph.dev')
      .first('id', 'organization_id'))!;
    const template = (await db('dvir.inspection_templates')
      .where({ organization_id: viewer.organization_id, latest: true })
      .whereNull('group_id')
      .first('id', 'version'))!;
    const g0 = performance.now();
    await db.raw(
      `create temporary table bench_vehicles as
         select row_number() over (order by vehicle_id) - 1 as k, vehicle_id, min(group_id::text)::uuid as group_id
           from fleet_contract.account_visible_vehicles_v1 where account_id = ? group by vehicle_id`,
      [viewer.id],
    );
    const fleet = Number((await db('bench_vehicles').count('* as n').first())!.n);
    const BATCH = 250_000;
    for (let from = 1; from <= GATEWAY_REPORTS; from += BATCH) {
      const to = Math.min(GATEWAY_REPORTS, from + BATCH - 1);
      await db.raw(
        `insert into dvir.inspection_reports (id, organization_id, vehicle_id, group_id, template_id, template_version,
           default_language, vehicle_type, workflow_status, status, inspection_type, started_at, completed_at, created_at, updated_at)
         select ${reportId('n')}, ?, v.vehicle_id, v.group_id, ?, ?, 'EN', 'VAN', 'REVIEWED',
                case when n % 25 = 0 then 'WITH_DEFECTS' else 'VALIDATED' end, 'PRE_TRIP', t, t + interval '8 minutes', t, t
           from generate_series(?::int, ?::int) n
           join bench_vehicles v on v.k = n % ?
           cross join lateral (select ?::timestamptz - interval '400 days' - interval '47 seconds' * n as t) s`,
        [viewer.organization_id, template.id, template.version, from, to, fleet, NOW],
      );
      await db.raw(
        `insert into dvir.inspection_answers (id, report_id, organization_id, vehicle_id, group_id, item_id, result, language,
           item_name, item_description, item_category, item_order_position, item_translations, created_at, updated_at)
         select gen_random_uuid(), r.id, r.organization_id, r.vehicle_id, r.group_id, it.id,
                case when it.order_position = 1 and r.status <> 'VALIDATED' then 'DEFECT' else 'OK' end, 'EN',
                it.name, it.description, it.category, it.order_position, it.translations, r.completed_at, r.completed_at
           from dvir.inspection_reports r
           join dvir.inspection_items it on it.template_id = r.template_id and it.template_version = r.template_version
          where r.id in (select ${reportId('n')} from generate_series(?::int, ?::int) n)`,
        [from, to],
      );
      await db.raw(
        `insert into dvir.defects (id, organization_id, vehicle_id, group_id, description, status, inspection_item_id,
           inspection_answer_id, reported_in_report_id, created_at, updated_at)
         select gen_random_uuid(), a.organization_id, a.vehicle_id, a.group_id, 'Scratch', 'OPEN', a.item_id, a.id, a.report_id,
                a.created_at, a.created_at
           from dvir.inspection_answers a
          where a.result = 'DEFECT' and a.report_id in (select ${reportId('n')} from generate_series(?::int, ?::int) n)`,
        [from, to],
      );
    }
    const total = Number((await db('dvir.inspection_reports').count('* as n').first())!.n);
    console.log(
      `\ngateway run: demo platform + ${GATEWAY_REPORTS} generated reports on the demo account's ${fleet} vehicles ` +
        `(${total} reports in all; generated in ${((performance.now() - g0) / 1000).toFixed(1)} s)`,
    );
    const depth = Math.floor(total * 0.8);
    const at = (
      await db.raw(
        `select started_at, id from dvir.inspection_reports order by started_at desc, id desc offset ? limit 1`,
        [depth - 1],
      )
    ).rows[0];
    const deepCursor = new CursorCodec(SECRET).encode({
      k: [new Date(at.started_at).toISOString(), at.id],
      s: PAGE,
      f: fingerprint('inspectionReports', {}),
    });
    const query = `query($n: Int, $p: ID) { inspectionReports(pageSize: $n, pageId: $p) { next list {
        id status workflowStatus inspectionType startedAt vehicle { id }
        inspectionAnswers(locale: FR) { list { id result resultLabel itemName itemCategoryLabel } }
        defects { list { id status description outOfService } } } } }`;
    const run = (url: string, pageId: string | null) => async () => {
      const res = await postGraphQL(url, query, {
        token: bench.token,
        variables: { n: PAGE, p: pageId },
        headers: bench.platform.subgraphHeaders,
      });
      if (res.errors) throw new Error(JSON.stringify(res.errors));
      if (res.data.inspectionReports.list.length !== PAGE) throw new Error('short page');
    };
    const urls = { direct: bench.platform.urls.subgraphs['dvir']!, gateway: bench.platform.urls.graphql };
    for (const [label, url] of Object.entries(urls)) {
      const first = await measure(N, run(url, null));
      printRow(`${label}: page 1`, first);
      const deep = await measure(N, run(url, deepCursor));
      printRow(`${label}: page at row ${depth + 1}`, deep);
      console.log(
        `${label} deep/first ratio: p50 ${(deep.p50 / first.p50).toFixed(2)}, p99 ${(deep.p99 / first.p99).toFixed(2)} (goal <= 1.5)`,
      );
    }
  } finally {
    await db.destroy();
    await bench.close();
  }
}

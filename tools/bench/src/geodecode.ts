/**
 * geodecode benchmark: p50/p99 of `geodecode` through the gateway and straight to the
 * subgraph, on points around the world, and the memory of the process holding the subgraph.
 *
 *   npx tsx tools/bench/src/geodecode.ts            (BENCH_N requests per row, default 500)
 */
import { freePort } from '@fleetgraph/testing';
import { graphqlCall, measure, printRow, startBenchPlatform } from './harness';
import { GEO_POINTS } from './geo-points';
import { standaloneApp } from './process-memory';

const N = Number(process.env.BENCH_N ?? 500);
const POINTS = GEO_POINTS;
const QUERY = `query($lat: Float, $lng: Float) { geodecode(lat: $lat, lng: $lng, radius: 500, maxResult: 3, lang: "de") {
  extent { minLat maxLat } elements { kind country countryCode city street houseNumber distance } } }`;

const bench = await startBenchPlatform();
try {
  const { platform, token } = bench;
  const viaGateway = graphqlCall(platform.urls.graphql, token);
  const direct = graphqlCall(platform.urls.subgraphs['geodecode']!, token, platform.subgraphHeaders);
  const vars = (i: number) => ({ lat: POINTS[i % POINTS.length]![0], lng: POINTS[i % POINTS.length]![1] });
  console.log(`geodecode benchmark: ${N} sequential requests per row, ${POINTS.length} points cycled`);
  const d = await measure(N, (i) => direct(QUERY, vars(i)).then(() => {}));
  printRow('direct to the subgraph', d);
  const g = await measure(N, (i) => viaGateway(QUERY, vars(i)).then(() => {}));
  printRow('through the gateway', g, `   (gateway/direct p50 ${(g.p50 / d.p50).toFixed(2)}x)`);

  // The subgraph on its own, as deployed: its resident memory after serving the same load.
  const port = await freePort();
  const alone = await standaloneApp(
    'apps/geodecode/src/main.ts',
    {
      GEODECODE_PORT: String(port),
      DATABASE_URL: process.env.DATABASE_URL_BENCH ?? bench.databaseUrl,
      SSO_ISSUER: platform.urls.sso,
      LOG_LEVEL: 'warn',
    },
    `http://127.0.0.1:${port}/readyz`,
  );
  try {
    const rssStart = alone.rssMiB();
    const standalone = graphqlCall(`http://127.0.0.1:${port}/graphql`, token);
    const s = await measure(N, (i) => standalone(QUERY, vars(i)).then(() => {}));
    printRow('direct to a standalone process', s);
    console.log(
      `geodecode process memory: rss ${rssStart.toFixed(0)} MiB when ready, ${alone.rssMiB().toFixed(0)} MiB after ${N + 20} requests`,
    );
  } finally {
    await alone.stop();
  }
} finally {
  await bench.close();
}

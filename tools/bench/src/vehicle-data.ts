/**
 * vehicle-data benchmark: p50/p99 of decodeVin and decodeDtcs through the gateway (and
 * straight to the subgraph, for the gateway's share), and the time per alpr image.
 *
 *   npx tsx tools/bench/src/vehicle-data.ts          (BENCH_N requests per row, default 300)
 */
import { performance } from 'node:perf_hooks';
import { plateImage, rotatedPlateImage, sceneImage } from '@fleetgraph/vehicle-data/testing';
import { graphqlCall, measure, printRow, startBenchPlatform } from './harness';

const N = Number(process.env.BENCH_N ?? 300);
const VINS = [
  '1HGCM82633A004352',
  '5YJ3E1EA2KF317000',
  'WVWZZZ1JZXW000001',
  'VF1RFB00X56123456',
  'WBA3A5C55CF256985',
];
const DECODE_VIN =
  'query ($vin: String!) { decodeVin(vin: $vin) { make model manufacturer country verified extraInfo { modelYear } } }';
const DECODE_DTCS =
  'query ($codes: [String]!) { decodeDtcs(vin: "", codes: $codes, protocol: OBD2, region: EUROPE, language: DE) { code description cause classification } }';
const ALPR =
  'query ($p: String!, $c: String!) { alpr(vehiclePicture: $p, country: $c) { plate { normalized confidence } } }';

const bench = await startBenchPlatform();
try {
  const { platform, token } = bench;
  const targets = {
    'through the gateway': platform.urls.graphql,
    'direct to the subgraph': platform.urls.subgraphs['vehicle-data']!,
  };
  console.log(`vehicle-data benchmark: ${N} sequential requests per row`);
  for (const [label, url] of Object.entries(targets)) {
    const call = graphqlCall(url, token, platform.subgraphHeaders);
    printRow(
      `decodeVin ${label}`,
      await measure(N, (i) => call(DECODE_VIN, { vin: VINS[i % VINS.length] }).then(() => {})),
    );
    printRow(
      `decodeDtcs ${label}`,
      await measure(N, () =>
        call(DECODE_DTCS, { codes: ['P0300', 'P0420', 'U0100', 'B0001', 'C0035'] }).then(() => {}),
      ),
    );
  }
  const call = graphqlCall(platform.urls.graphql, token);
  const images: [string, Buffer, string][] = [
    ['close-up plate', await plateImage('GH-456-JK'), 'FR'],
    ['plate rotated 15 degrees', await rotatedPlateImage('AB-123-CD', -15), 'FR'],
    ['plate in a street scene', await sceneImage('B-TS 3000E'), 'DE'],
  ];
  const start = performance.now();
  await call(ALPR, { p: images[0]![1].toString('base64'), c: 'FR' });
  console.log(
    `alpr first request (starts the OCR worker pool): ${(performance.now() - start).toFixed(0)} ms`,
  );
  for (const [name, image, country] of images) {
    const stats = await measure(
      Math.max(5, Math.round(N / 20)),
      () => call(ALPR, { p: image.toString('base64'), c: country }).then(() => {}),
      2,
    );
    printRow(`alpr, ${name}`, stats, `   (${(image.length / 1024).toFixed(0)} KiB image)`);
  }
} finally {
  await bench.close();
}

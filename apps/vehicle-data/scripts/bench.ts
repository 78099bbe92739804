/**
 * Benchmark of vehicle-data: p50/p99 of decodeVin and decodeDtcs, and the time per alpr image.
 *
 *   Through a running gateway (or the subgraph itself):
 *     BENCH_URL=http://localhost:4000/graphql BENCH_TOKEN=<access token> npx tsx apps/vehicle-data/scripts/bench.ts
 *   In process (throwaway database on DATABASE_URL, requests through app.inject):
 *     DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx apps/vehicle-data/scripts/bench.ts
 *
 * BENCH_N sets the number of sequential requests per query (default 200).
 */
import { performance } from 'node:perf_hooks';
import { createTestDatabase } from '@fleetgraph/db';
import { createTestIssuer, injectGraphQL, postGraphQL } from '@fleetgraph/testing';
import { buildApp } from '../src/app';
import { loadVehicleDataConfig } from '../src/config';
import { plateImage, rotatedPlateImage, sceneImage } from '../src/testing/plate-images';

const N = Number(process.env.BENCH_N ?? 200);
const VINS = ['1HGCM82633A004352', '5YJ3E1EA2KF317000', 'WVWZZZ1JZXW000001', 'VF1RFB00X56123456', 'WBA3A5C55CF256985'];
const DECODE_VIN = 'query ($vin: String!) { decodeVin(vin: $vin) { make model verified extraInfo { modelYear } } }';
const DECODE_DTCS =
  'query ($codes: [String]!) { decodeDtcs(vin: "", codes: $codes, protocol: OBD2, region: EUROPE, language: DE) { code description cause } }';
const ALPR = 'query ($p: String!, $c: String!) { alpr(vehiclePicture: $p, country: $c) { plate { normalized confidence } } }';

type Send = (query: string, variables: Record<string, unknown>) => Promise<{ errors?: unknown[] }>;

async function setup(): Promise<{ send: Send; close: () => Promise<void>; target: string }> {
  if (process.env.BENCH_URL) {
    const url = process.env.BENCH_URL;
    const token = process.env.BENCH_TOKEN;
    return { target: url, send: (q, v) => postGraphQL(url, q, { variables: v, ...(token ? { token } : {}) }), close: async () => {} };
  }
  const database = await createTestDatabase('vd_bench');
  const issuer = await createTestIssuer();
  const app = await buildApp(
    { ...loadVehicleDataConfig({ SSO_ISSUER: issuer.issuer, LOG_LEVEL: 'silent' }), databaseUrl: database.url },
    { jwks: issuer.jwks, seed: true },
  );
  const token = await issuer.token({ uid: '00000000-0000-4000-8000-000000000001', email: 'bench@example.com' });
  return {
    target: 'in-process subgraph (app.inject)',
    send: (q, v) => injectGraphQL(app, q, { token, variables: v }),
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function measure(name: string, send: Send, query: string, variables: (i: number) => Record<string, unknown>, n: number) {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    const res = await send(query, variables(i));
    times.push(performance.now() - start);
    if (res.errors) throw new Error(`${name}: ${JSON.stringify(res.errors)}`);
  }
  times.sort((a, b) => a - b);
  console.log(`${name.padEnd(12)} n=${n}  p50 ${pct(times, 50).toFixed(1)} ms  p99 ${pct(times, 99).toFixed(1)} ms  max ${times.at(-1)!.toFixed(1)} ms`);
}

const { send, close, target } = await setup();
console.log(`vehicle-data benchmark against ${target}`);
try {
  await send(DECODE_VIN, { vin: VINS[0] }); // warm: opens the vPIC database
  await measure('decodeVin', send, DECODE_VIN, (i) => ({ vin: VINS[i % VINS.length] }), N);
  await measure('decodeDtcs', send, DECODE_DTCS, () => ({ codes: ['P0300', 'P0420', 'U0100', 'B0001', 'C0035'] }), N);
  const images: [string, Buffer, string][] = [
    ['close-up', await plateImage('GH-456-JK'), 'FR'],
    ['rotated', await rotatedPlateImage('AB-123-CD', -15), 'FR'],
    ['scene', await sceneImage('B-TS 3000E'), 'DE'],
  ];
  const first = performance.now();
  await send(ALPR, { p: images[0]![1].toString('base64'), c: 'FR' });
  console.log(`alpr first request (starts the OCR workers): ${(performance.now() - first).toFixed(0)} ms`);
  for (const [name, image, country] of images) {
    await measure(`alpr ${name}`, send, ALPR, () => ({ p: image.toString('base64'), c: country }), Math.max(3, Math.round(N / 20)));
  }
} finally {
  await close();
}

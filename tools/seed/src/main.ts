/**
 * `npm run seed -- [--scale N] [--trips-per-device T] [--if-empty]`: loads the deterministic demo
 * data into an empty database (DATABASE_URL, else the embedded server), after running the fleet
 * and sso migrations, then every other subgraph's demo data through its manifest. With --if-empty a database that already has data is left alone (exit 0),
 * for container starts. `--scale 1334` gives ~100k devices and, with the default 125 trips per
 * connected device, ~10M trips (progress bar with the trip rate; a line every 10 s when stderr is
 * not a terminal).
 */
import { formatCounts } from './counts';
import { openToolDatabase } from './database';
import type { Knex } from 'knex';
import { loadSubgraphManifests } from '@fleetgraph/subgraphs';
import { seedDemoData } from './orchestrate';
import { DEFAULT_TRIPS_PER_DEVICE, MAX_SCALE, isSeeded, seedDemo } from './seed';

const USAGE = `usage: npm run seed -- [--scale N] [--trips-per-device T] [--if-empty]
  N: integer 1..${MAX_SCALE}, default 1 (~75 devices per unit; 1334 is ~100k devices)
  T: integer 0..10000, default ${DEFAULT_TRIPS_PER_DEVICE} (trips per connected device with a vehicle)`;

function parseArgs(argv: string[]): { scale: number; tripsPerDevice: number } {
  let scale = 1;
  let tripsPerDevice = DEFAULT_TRIPS_PER_DEVICE;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--if-empty') continue;
    if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    const [name, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    if (name !== '--scale' && name !== '--trips-per-device') {
      throw new Error(`unknown argument ${JSON.stringify(arg)}\n${USAGE}`);
    }
    const value = inline ?? argv[++i];
    const n = Number(value);
    if (name === '--scale') {
      if (!Number.isInteger(n) || n < 1 || n > MAX_SCALE) {
        throw new Error(
          `--scale needs an integer between 1 and ${MAX_SCALE} (got ${JSON.stringify(value ?? '')})`,
        );
      }
      scale = n;
    } else {
      if (!Number.isInteger(n) || n < 0 || n > 10_000) {
        throw new Error(
          `--trips-per-device needs an integer between 0 and 10000 (got ${JSON.stringify(value ?? '')})`,
        );
      }
      tripsPerDevice = n;
    }
  }
  return { scale, tripsPerDevice };
}

async function main(): Promise<number> {
  let scale: number;
  let tripsPerDevice: number;
  try {
    ({ scale, tripsPerDevice } = parseArgs(process.argv.slice(2)));
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  const db = await openToolDatabase();
  try {
    if (process.argv.includes('--if-empty') && (await isSeeded(db.knex))) {
      console.log('fleet-core already has data: its demo data is left as it is');
    } else {
      await seedFleet(db.knex, scale, tripsPerDevice);
    }
    // Every other subgraph's demo data, through its manifest's hook (those already seeded skipped).
    const others = await seedDemoData(db.knex, await loadSubgraphManifests(), {
      progress: true,
      scale,
      log: (line) => console.error(line),
    });
    if (others.seeded.length > 0) console.log(`Demo data of ${others.seeded.join(', ')} loaded.`);
    return 0;
  } catch (error) {
    console.error(`seed failed: ${(error as Error).message}`);
    return 1;
  } finally {
    await db.close();
  }
}

/** fleet-core's demo data, with the figures and logins `npm run seed` prints. */
async function seedFleet(knex: Knex, scale: number, tripsPerDevice: number): Promise<void> {
  const summary = await seedDemo(knex, {
    scale,
    tripsPerDevice,
    progress: true,
    log: (line) => console.error(line),
  });
  console.log(`Seeded demo data at scale ${summary.scale} in ${(summary.durationMs / 1000).toFixed(1)} s:`);
  console.log(
    `  trips and device data: ${(summary.tripsDurationMs / 1000).toFixed(1)} s, ${summary.tripsPerSecond} trips/s`,
  );
  console.log(formatCounts(summary));
  console.log('\nSign in with (all seeded accounts share this password):');
  for (const login of summary.logins) {
    console.log(
      `  ${login.email.padEnd(32)} ${login.password}   ${login.organization}, member of ${login.memberOf.join(', ')}`,
    );
  }
}

// Exit with main's code, whatever handle a library left open.
process.exit(await main());

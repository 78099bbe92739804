/**
 * `npm run import -- <file.json>`: validates a fleet dataset (format: tools/seed/README.md) and
 * writes it in one transaction, with its accounts' sign-ins at the SSO.
 * `npm run import -- <subgraph> <kind> <file> [--key=value ...]`: runs that subgraph's importer
 * (its manifest's `importers`; `npm run import -- --help` lists them), e.g.
 * `npm run import -- mobility transactions statement.csv --format=csv`.
 * Either way, invalid input prints every problem with its JSON path or line and column, writes
 * nothing and exits 1.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { formatCounts } from './counts';
import { openToolDatabase } from './database';
import { ImportError, importDataset } from './import';
import { subgraphManifest, loadSubgraphManifests } from '@fleetgraph/subgraphs';
import { createLogins } from './orchestrate';

async function usage(): Promise<string> {
  const lines = [
    'usage: npm run import -- <file.json>                               a fleet dataset (tools/seed/README.md)',
    '       npm run import -- <subgraph> <kind> <file> [--key=value...]  a subgraph importer:',
  ];
  for (const m of await loadSubgraphManifests())
    for (const [kind, importer] of Object.entries(m.importers ?? {}))
      lines.push(`         ${`${m.name} ${kind}`.padEnd(30)} ${importer.description}`);
  return lines.join('\n');
}

/** `--key=value` options, passed to the importer as they are. */
function optionsOf(args: string[]): Record<string, string> {
  return Object.fromEntries(
    args
      .filter((a) => a.startsWith('--'))
      .map((a) => {
        const eq = a.indexOf('=');
        return eq < 0 ? [a.slice(2), 'true'] : [a.slice(2, eq), a.slice(eq + 1)];
      }),
  );
}

async function importWithManifest(
  [name, kind, path]: [string, string, string],
  args: string[],
): Promise<number> {
  let importer;
  try {
    importer = (await subgraphManifest(name)).importers?.[kind];
  } catch {
    importer = undefined;
  }
  if (!importer) {
    console.error(`no importer "${kind}" in subgraph "${name}"\n${await usage()}`);
    return 2;
  }
  const file = resolve(process.env.INIT_CWD ?? process.cwd(), path);
  const db = await openToolDatabase();
  try {
    const log = (line: string) => console.error(line);
    const outcome = await importer.run(db.knex, file, { log, now: new Date(), options: optionsOf(args) });
    if (!outcome.ok) {
      console.error(`${file}: nothing imported, ${outcome.problems.length} problem(s):`);
      for (const problem of outcome.problems) console.error(`  - ${problem}`);
      return 1;
    }
    const logins = await createLogins(db.knex, outcome.logins ?? []);
    console.log(`Imported ${file}:`);
    for (const [what, n] of Object.entries(outcome.summary))
      console.log(`  ${what.padEnd(32)} ${String(n).padStart(8)}`);
    if (logins > 0) console.log(`  ${'sign-ins created'.padEnd(32)} ${String(logins).padStart(8)}`);
    return 0;
  } finally {
    await db.close();
  }
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args[0] === '--help' || args[0] === '-h') {
    console.log(await usage());
    return 0;
  }
  const positional = args.filter((a) => !a.startsWith('--'));
  if (positional.length === 3) return importWithManifest(positional as [string, string, string], args);
  if (args.length !== 1) {
    console.error(await usage());
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

// Exit with main's code, whatever handle a library left open.
process.exit(await main());

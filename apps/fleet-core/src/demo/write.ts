/** Batched multi-row inserts (1000 rows per statement keeps well under PostgreSQL's 65535 parameters). */
import type { Knex } from 'knex';

export const BATCH_SIZE = 1000;

export async function insertInBatches(
  db: Knex | Knex.Transaction,
  table: string,
  rows: ReadonlyArray<Record<string, unknown>>,
  onBatch?: (inserted: number) => void,
): Promise<number> {
  for (let i = 0; i < rows.length; i += BATCH_SIZE) {
    const batch = rows.slice(i, i + BATCH_SIZE);
    await db(table).insert(batch);
    onBatch?.(batch.length);
  }
  return rows.length;
}

export async function countRows(
  db: Knex | Knex.Transaction,
  table: string,
  where?: (q: Knex.QueryBuilder) => void,
): Promise<number> {
  const query = db(table).count<{ n: number }[]>({ n: '*' });
  where?.(query);
  const [row] = await query;
  return Number(row?.n ?? 0);
}

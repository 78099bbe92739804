/**
 * Writing what the rules built: template versions (the newest becomes `latest`, older ones are no
 * longer active), reports with their answers, defects and attachments (bytes stored first, so a
 * row never points at a missing file), in bulk.
 */
import type { Knex } from 'knex';
import type { StoredFile } from '../data/files/service';
import { templateRows, type ReportRows, type Row, type TemplateInput } from './rules';

export interface FileStore {
  store(bytes: Uint8Array): Promise<StoredFile>;
}

const CHUNK = 5000;

/**
 * Bulk insert: each chunk is one statement with one JSON parameter expanded by
 * jsonb_populate_recordset (columns typed by the table), so writing tens of thousands of rows costs
 * a few statements and no per-value bindings. Columns absent from the rows keep their defaults.
 */
async function insertChunks(knex: Knex, table: string, rows: Row[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const list = columns.map(() => '??').join(', ');
  for (let i = 0; i < rows.length; i += CHUNK) {
    await knex.raw(
      `insert into ?? (${list}) select ${list} from jsonb_populate_recordset(null::??, ?::jsonb)`,
      [table, ...columns, ...columns, table, JSON.stringify(rows.slice(i, i + CHUNK))],
    );
  }
}

/** Writes template versions; per template the highest version is `latest`. */
export async function writeTemplates(knex: Knex, templates: TemplateInput[]): Promise<void> {
  if (templates.length === 0) return;
  const ids = [...new Set(templates.map((t) => t.id))];
  const existing: Array<{ id: string; version: number }> = await knex('dvir.inspection_templates')
    .select('id', 'version')
    .whereIn('id', ids);
  const highest = new Map<string, number>();
  for (const t of [...existing, ...templates]) highest.set(t.id, Math.max(highest.get(t.id) ?? 0, t.version));
  const rows = templates.map((t) => templateRows(t, highest.get(t.id) === t.version));
  await knex('dvir.inspection_templates')
    .whereIn('id', ids)
    .where('latest', true)
    .update({ latest: false, active: false });
  await insertChunks(
    knex,
    'dvir.inspection_templates',
    rows.map((r) => r.template),
  );
  await insertChunks(
    knex,
    'dvir.inspection_items',
    rows.flatMap((r) => r.items),
  );
}

/** Stores the reports' files, then inserts reports, answers, defects and attachments. */
/**
 * `stored`: the files already stored, by their bytes' identity; a caller writing in batches passes
 * one map to every call, so bytes shared across batches (the demo's images) are stored once.
 */
export async function writeReports(
  knex: Knex,
  files: FileStore,
  reports: ReportRows[],
  stored = new Map<Uint8Array, StoredFile>(),
): Promise<void> {
  const attachments: Row[] = [];
  for (const report of reports) {
    for (const file of report.files) {
      if (!file.bytes) {
        attachments.push(file.row);
        continue;
      }
      let saved = stored.get(file.bytes);
      if (!saved) {
        saved = await files.store(file.bytes);
        stored.set(file.bytes, saved);
      }
      attachments.push({
        ...file.row,
        content_type: saved.contentType,
        byte_size: saved.byteSize,
        sha256: saved.sha256,
        storage_key: saved.storageKey,
      });
    }
  }
  await insertChunks(
    knex,
    'dvir.inspection_reports',
    reports.map((r) => r.report),
  );
  await insertChunks(
    knex,
    'dvir.inspection_answers',
    reports.flatMap((r) => r.answers),
  );
  await insertChunks(
    knex,
    'dvir.defects',
    reports.flatMap((r) => r.defects),
  );
  await insertChunks(knex, 'dvir.attachments', attachments);
}

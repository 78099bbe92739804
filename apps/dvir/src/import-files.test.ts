/**
 * An import reads only what it was given (import/files.ts) and makes a template every
 * organization's only on purpose: through `npm run import -- dvir reports` (the command a user
 * runs, in its own process) and through the importer it dispatches to, on a real database; the
 * file an import did take is the one its signed URL downloads.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '@fleetgraph/service-kit';
import { scratchDir } from '@fleetgraph/testing';
import { startDvirHarness, type DvirHarness } from './testing/fixture';
import { importReportsFile } from './import/reports';

let h: DvirHarness;
let F: any;
before(async () => {
  h = await startDvirHarness('dvir-import-files');
  F = h.facts['fleet-core'];
});
after(async () => h?.close());

const dataset = scratchDir('dvir-dataset');
const outside = scratchDir('dvir-outside');
writeFileSync(join(outside, 'dev-secrets.json'), '{"pagingSecret":"not-for-anyone"}');
const uuid = (n: number) => `7c000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const TEMPLATE = uuid(1);
const ITEM = uuid(2);

function write(name: string, data: unknown): string {
  const path = join(dataset, name);
  writeFileSync(path, JSON.stringify(data));
  return path;
}

const template = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  version: 1,
  name: 'Walkaround',
  defaultLanguage: 'EN',
  signatureRequired: false,
  items: [{ id: id === TEMPLATE ? ITEM : undefined, orderPosition: 1, category: 'EXTERIOR', name: 'Body' }],
  ...extra,
});

/** A submitted report on a depot vehicle with these attachments, against TEMPLATE. */
const report = (id: string, attachments: unknown[]) => ({
  id,
  vehicleId: F.vehicles.depot[0],
  templateId: TEMPLATE,
  templateVersion: 1,
  inspectionType: 'PRE_TRIP',
  workflowStatus: 'SUBMITTED',
  startedAt: '2026-03-10T06:00:00Z',
  completedAt: '2026-03-10T06:05:00Z',
  answers: [{ itemId: ITEM, result: 'OK' }],
  attachments,
});

/** `npm run import -- dvir reports <file> [args]` in its own process, on the harness's database. */
async function importCommand(file: string, ...args: string[]) {
  const { DATABASE_URL: _url, ...env } = process.env;
  try {
    const { stdout, stderr } = await promisify(execFile)(
      'npx',
      ['tsx', 'tools/seed/src/import-main.ts', 'dvir', 'reports', file, ...args],
      {
        cwd: repoRoot,
        env: {
          ...env,
          DATABASE_URL: h.databaseUrl,
          DVIR_FILES_DIR: h.config.filesDir,
          LOG_LEVEL: 'silent',
        },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const storedFiles = () => {
  try {
    return readdirSync(h.config.filesDir, { recursive: true }).length;
  } catch {
    return 0;
  }
};

test('no attachment path reaches outside the dataset folder: .., absolute, symbolic links, folders', async () => {
  symlinkSync(join(outside, 'dev-secrets.json'), join(dataset, 'walkaround.pdf'));
  symlinkSync(outside, join(dataset, 'linked'));
  mkdirSync(join(dataset, 'a-folder'));
  const file = write('hostile.json', {
    templates: [template(TEMPLATE, { groupId: F.groups.depot })],
    reports: [
      report(uuid(10), [
        { kind: 'DOCUMENT', filename: 'a.pdf', path: `../${basename(outside)}/dev-secrets.json` },
        { kind: 'DOCUMENT', filename: 'b.pdf', path: join(outside, 'dev-secrets.json') },
        { kind: 'DOCUMENT', filename: 'c.pdf', path: 'walkaround.pdf' },
        { kind: 'DOCUMENT', filename: 'd.pdf', path: 'linked/dev-secrets.json' },
        { kind: 'DOCUMENT', filename: 'e.pdf', path: 'a-folder' },
      ]),
    ],
  });
  const files = storedFiles();
  const out = await importCommand(file);
  assert.equal(out.code, 1, out.stdout + out.stderr);
  const at = (k: number) => `$.reports[0].attachments[${k}].path: `;
  for (const expected of [
    `${at(0)}"../${basename(outside)}/dev-secrets.json" leaves the dataset's folder ("..")`,
    `${at(1)}"${join(outside, 'dev-secrets.json')}" is absolute`,
    `${at(2)}"walkaround.pdf" resolves outside the dataset's folder (a symbolic link)`,
    `${at(3)}"linked/dev-secrets.json" resolves outside the dataset's folder (a symbolic link)`,
    `${at(4)}"a-folder" is not a regular file`,
  ])
    assert.ok(out.stderr.includes(expected), `${expected}\n in\n${out.stderr}`);
  assert.match(out.stderr, /nothing imported, 5 problem\(s\)/);
  assert.equal(await h.knex('dvir.inspection_reports').where('id', uuid(10)).first(), undefined);
  assert.equal(await h.knex('dvir.inspection_templates').where('id', TEMPLATE).first(), undefined);
  assert.equal(storedFiles(), files, 'nothing was stored');
});

test('attachments over DVIR_MAX_ATTACHMENT_BYTES are refused by path, whether a file or base64', async () => {
  writeFileSync(join(dataset, 'big.png'), Buffer.alloc(1001, 1));
  const file = write('big.json', {
    templates: [template(TEMPLATE, { groupId: F.groups.depot })],
    reports: [
      report(uuid(11), [
        { kind: 'WALKAROUND', filename: 'big.png', path: 'big.png' },
        { kind: 'WALKAROUND', filename: 'big.png', base64: Buffer.alloc(1001, 2).toString('base64') },
      ]),
    ],
  });
  const out = await importReportsFile(
    h.knex,
    file,
    { log: () => {}, now: new Date() },
    { ...h.config, maxAttachmentBytes: 1000 },
  );
  assert.deepEqual(out, {
    ok: false,
    problems: [
      '$.reports[0].attachments[0]: the file is 1001 bytes, over the maximum of 1000 (DVIR_MAX_ATTACHMENT_BYTES)',
      '$.reports[0].attachments[1]: the file is 1001 bytes, over the maximum of 1000 (DVIR_MAX_ATTACHMENT_BYTES)',
    ],
  });
});

test('a file inside the dataset folder, within the maximum, is imported and its signed URL downloads it', async () => {
  mkdirSync(join(dataset, 'photos'), { recursive: true });
  const bytes = Buffer.from('%PDF-1.4\n% a walkaround document\n');
  writeFileSync(join(dataset, 'photos', 'walkaround.pdf'), bytes);
  const attachment = uuid(30);
  const file = write('fine.json', {
    templates: [template(TEMPLATE, { groupId: F.groups.depot })],
    reports: [
      report(uuid(12), [
        { id: attachment, kind: 'DOCUMENT', filename: 'w.pdf', path: 'photos/walkaround.pdf' },
      ]),
    ],
  });
  const out = await importReportsFile(
    h.knex,
    file,
    { log: () => {}, now: new Date() },
    { ...h.config, maxAttachmentBytes: bytes.byteLength },
  );
  assert.equal(out.ok, true, JSON.stringify(out));
  const answer = await h.as(F.alice)('query($id: ID!) { dvirAttachment(id: $id) { fileUrl byteSize } }', {
    id: attachment,
  });
  assert.equal(answer.errors, undefined, JSON.stringify(answer.errors));
  const url = new URL(answer.data.dvirAttachment.fileUrl);
  const download = await h.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
  assert.equal(download.statusCode, 200);
  assert.deepEqual(download.rawPayload, bytes);
});

test('a template naming no organization is refused unless stated global (--global or "organizationId": null)', async () => {
  const nameless = uuid(40);
  const file = write('global.json', { templates: [template(nameless)] });
  const refused = await importCommand(file);
  assert.equal(refused.code, 1, refused.stdout + refused.stderr);
  assert.match(
    refused.stderr,
    /\$\.templates\[0\]: names no organization, so every organization would see it: give groupId or organizationId, or state "organizationId": null \(or import with --global\)/,
  );
  assert.equal(await h.knex('dvir.inspection_templates').where('id', nameless).first(), undefined);

  const global = await importCommand(file, '--global');
  assert.equal(global.code, 0, global.stdout + global.stderr);
  const stored = await h.knex('dvir.inspection_templates').where('id', nameless).first();
  assert.equal(stored.organization_id, null);

  const stated = uuid(41);
  const statedOut = await importReportsFile(
    h.knex,
    write('stated.json', { templates: [template(stated, { organizationId: null })] }),
    { log: () => {}, now: new Date() },
    h.config,
  );
  assert.equal(statedOut.ok, true, JSON.stringify(statedOut));
  // Every organization sees a global template.
  for (const user of [F.alice, F.carol]) {
    const seen = await h.as(user)('query($id: ID!) { inspectionTemplate(id: $id) { id } }', { id: stated });
    assert.equal(seen.data?.inspectionTemplate?.id, stated, JSON.stringify(seen));
  }
});

test("a template naming its organization is that organization's; a wrong or unknown one is refused", async () => {
  const own = uuid(50);
  const ok = await importReportsFile(
    h.knex,
    write('org.json', { templates: [template(own, { organizationId: F.orgA })] }),
    { log: () => {}, now: new Date() },
    h.config,
  );
  assert.equal(ok.ok, true, JSON.stringify(ok));
  const query = 'query($id: ID!) { inspectionTemplate(id: $id) { id groupId } }';
  const acme = await h.as(F.alice)(query, { id: own });
  assert.deepEqual(acme.data?.inspectionTemplate, { id: own, groupId: null }, JSON.stringify(acme));
  const globex = await h.as(F.carol)(query, { id: own });
  assert.equal(globex.errors, undefined, JSON.stringify(globex.errors));
  assert.equal(globex.data.inspectionTemplate, null, "another organization's user does not see it");

  const unknown = '00000000-0000-4000-8000-0000000000ee';
  const bad = await importReportsFile(
    h.knex,
    write('bad-org.json', {
      templates: [
        template(uuid(51), { organizationId: unknown }),
        template(uuid(52), { groupId: F.groups.depot, organizationId: F.orgB }),
      ],
    }),
    { log: () => {}, now: new Date() },
    h.config,
  );
  assert.deepEqual(bad, {
    ok: false,
    problems: [
      `$.templates[0].organizationId: no organization ${unknown}`,
      `$.templates[1].organizationId: group ${F.groups.depot} belongs to another organization`,
    ],
  });
});

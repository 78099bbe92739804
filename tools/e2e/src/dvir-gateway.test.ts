/**
 * dvir through the real gateway, on the demo data (every manifest's demo hook), generated from
 * dvir's own schema so that a field added later is covered without editing this file:
 *
 * - for every dvir root query, a document selecting every field of every dvir type it reaches
 *   (each type expanded once per document, nested pages of a few rows) runs as the demo login
 *   through the gateway without errors; lookups use ids the lists answered;
 * - across those answers every field of every dvir type holds a value at least once;
 * - the gateway answers what dvir answers directly;
 * - fleet-core's Vehicle carries dvir's fields through the gateway (reports, open defects,
 *   safe-to-drive), and a report's vehicle resolves fleet-core's fields;
 * - a signed fileUrl downloads the real image from dvir;
 * - another organization's login gets null for the demo organization's ids and never sees them.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import { postGraphQL, WHOLE_SCHEMA_LIMITS } from '@fleetgraph/testing';
import { DEMO_EMAIL, DEMO_PASSWORD } from '@fleetgraph/seed';
import { fullSelection, requiredArgs, type SelectionRules } from './schema-walk';
import { startStack, type Stack } from './stack';

const OTHER_ORG_EMAIL = 'ops@globex.example';
const NESTED_PAGE = 4;
const ROOT_PAGE = 30;
const MAX_HOPS = 3;
/** Types dvir references but fleet-core owns: selected by id only. */
const FOREIGN = new Set(['Vehicle', 'Driver', 'Account', 'Query']);
/** Root lists run again with filters that reach rows the newest pages do not show. */
const EXTRA_ARGS: Record<string, string[]> = {
  defects: ['status: RESOLVED', 'status: NOT_NEEDING_REPAIR', 'status: DRAFT', 'status: IN_REPAIR'],
  inspectionReports: [
    'status: OUT_OF_SERVICE',
    'workflowStatus: IN_PROGRESS',
    'inspectionType: PERIODIC',
    'status: WITH_DEFECTS',
  ],
  inspectionTemplates: ['version: 1', 'sort: [CREATED_AT_DESC], locale: FR'],
  inspectionAnswers: ['locale: DE'],
};
/** Lookup arguments by root query: which typename's ids to use. */
const LOOKUPS: Record<string, string> = {
  defect: 'Defect',
  dvirAttachment: 'DvirAttachment',
  inspectionAnswer: 'InspectionAnswer',
  inspectionItem: 'InspectionItem',
  inspectionReport: 'InspectionReport',
  inspectionTemplate: 'InspectionTemplate',
};

let stack: Stack;
let schema: GraphQLSchema;
let dvirUrl: string;
const tokens = { demo: '', other: '' };
const seen = new Map<string, Set<string>>();
const filled = new Set<string>();
const documents: Array<{ root: string; document: string }> = [];

const SELECTION: SelectionRules = {
  maxHops: MAX_HOPS,
  nestedArgs: (field) => (field.args.some((a) => a.name === 'pageSize') ? `(pageSize: ${NESTED_PAGE})` : ''),
  linkOnly: FOREIGN,
};
const selection = (type: GraphQLObjectType) => fullSelection(type, SELECTION);

function walk(value: unknown): void {
  if (Array.isArray(value)) return value.forEach(walk);
  if (value === null || typeof value !== 'object') return;
  const object = value as Record<string, unknown>;
  const typename = object.__typename as string | undefined;
  if (typename && typeof object.id === 'string') {
    if (!seen.has(typename)) seen.set(typename, new Set());
    seen.get(typename)!.add(object.id);
  }
  for (const [key, child] of Object.entries(object)) {
    if (key === '__typename') continue;
    if (typename && child !== null && !(Array.isArray(child) && child.length === 0))
      filled.add(`${typename}.${key}`);
    walk(child);
  }
}

async function gateway(token: string, query: string, variables: Record<string, unknown> = {}) {
  const res = await postGraphQL(stack.platform.urls.graphql, query, { token, variables });
  assert.equal(res.errors, undefined, `${query.slice(0, 200)}: ${JSON.stringify(res.errors)}`);
  assert.ok(res.data);
  return res.data as Record<string, any>;
}

before(async () => {
  stack = await startStack('e2e_dvir_gateway', WHOLE_SCHEMA_LIMITS);
  dvirUrl = stack.platform.urls.subgraphs['dvir']!;
  tokens.demo = await stack.login(DEMO_EMAIL, DEMO_PASSWORD);
  tokens.other = await stack.login(OTHER_ORG_EMAIL, DEMO_PASSWORD);
  const introspection = await postGraphQL(stack.platform.urls.graphql, getIntrospectionQuery(), {
    token: tokens.demo,
  });
  assert.equal(introspection.errors, undefined, JSON.stringify(introspection.errors));
  schema = buildClientSchema(introspection.data as unknown as IntrospectionQuery);
});
after(() => stack?.close());

const dvirRoots = () =>
  Object.values(schema.getQueryType()!.getFields()).filter((f) =>
    [
      'defect',
      'defects',
      'dvirAttachment',
      'inspectionAnswer',
      'inspectionAnswers',
      'inspectionItem',
      'inspectionReport',
      'inspectionReports',
      'inspectionTemplate',
      'inspectionTemplates',
    ].includes(f.name),
  );

test('every dvir root query and field answers through the gateway, each field holding a value somewhere', async () => {
  const roots = dvirRoots();
  assert.equal(roots.length, 10);
  for (const field of roots.filter((f) => requiredArgs(f).length === 0)) {
    for (const extra of ['', ...(EXTRA_ARGS[field.name] ?? [])]) {
      const args = [`pageSize: ${ROOT_PAGE}`, extra].filter(Boolean).join(', ');
      const document = `{ ${field.name}(${args}) { ${selection(getNamedType(field.type) as GraphQLObjectType)} } }`;
      documents.push({ root: field.name, document });
      walk(await gateway(tokens.demo, document));
    }
  }
  for (const field of roots.filter((f) => requiredArgs(f).length > 0)) {
    const ids = [...(seen.get(LOOKUPS[field.name]!) ?? [])].slice(0, 5);
    assert.ok(ids.length > 0, `no ${LOOKUPS[field.name]} id for ${field.name}`);
    for (const id of ids) {
      const document = `{ ${field.name}(id: ${JSON.stringify(id)}) { ${selection(getNamedType(field.type) as GraphQLObjectType)} } }`;
      documents.push({ root: field.name, document });
      const data = await gateway(tokens.demo, document);
      assert.equal(data[field.name]?.id, id, `${field.name}(${id})`);
      walk(data);
    }
  }
  const dvirTypes = [
    'Defect',
    'DvirAttachment',
    'InspectionReport',
    'InspectionAnswer',
    'InspectionItem',
    'InspectionTemplate',
  ];
  const empty: string[] = [];
  for (const name of dvirTypes)
    for (const fieldName of Object.keys((schema.getType(name) as GraphQLObjectType).getFields()))
      if (!filled.has(`${name}.${fieldName}`)) empty.push(`${name}.${fieldName}`);
  assert.deepEqual(empty, [], 'fields never holding a value in the demo answers');
});

test('the gateway answers what dvir answers directly', async () => {
  const document = `{ inspectionReports(pageSize: 5) { count next list { id status startedAt inspectionAnswers(pageSize: 3) { list { id itemName resultLabel } } defects { list { id status } } } } }`;
  const viaGateway = await gateway(tokens.demo, document);
  const direct = await postGraphQL(dvirUrl, document, {
    token: tokens.demo,
    headers: stack.platform.subgraphHeaders,
  });
  assert.equal(direct.errors, undefined);
  assert.deepEqual(viaGateway, direct.data);
});

test("fleet-core's Vehicle carries dvir's fields, and a report's vehicle resolves fleet-core's", async () => {
  const data = await gateway(
    tokens.demo,
    `{ account { vehicles(pageSize: 100) { list { id plate dvirSafeToDrive lastInspectionReport { id completedAt }
        openDefects(pageSize: 5) { count list { id status vehicle { id } } }
        defects(status: RESOLVED, pageSize: 2) { count list { resolvedAt } }
        inspectionReports(pageSize: 2, workflowStatus: REVIEWED) { count list { id workflowStatus vehicle { plate } } } } } } }`,
  );
  const vehicles = data.account.vehicles.list;
  assert.ok(vehicles.length > 0);
  assert.ok(vehicles.every((v: any) => typeof v.dvirSafeToDrive === 'boolean'));
  assert.ok(
    vehicles.some((v: any) => v.inspectionReports.count > 30),
    'months of reports per vehicle',
  );
  assert.ok(vehicles.some((v: any) => v.openDefects.count > 0));
  assert.ok(vehicles.some((v: any) => v.defects.count > 0));
  for (const v of vehicles)
    for (const r of v.inspectionReports.list) {
      assert.equal(r.workflowStatus, 'REVIEWED');
      assert.equal(r.vehicle.plate, v.plate);
    }
  const unsafe = vehicles.filter((v: any) => !v.dvirSafeToDrive);
  for (const v of unsafe) assert.ok(v.openDefects.count > 0, 'an unsafe vehicle has an open defect');
});

test('a fileUrl downloads the real image from dvir; an altered one is refused', async () => {
  const data = await gateway(
    tokens.demo,
    `{ inspectionReports(pageSize: 5, inspectionType: PRE_TRIP) { list { attachments { list { kind contentType byteSize fileUrl } } } } }`,
  );
  const file = data.inspectionReports.list
    .flatMap((r: any) => r.attachments.list)
    .find((a: any) => a.kind === 'WALKAROUND');
  assert.ok(file, 'a walkaround photo');
  const url = new URL(file.fileUrl);
  const local = new URL(url.pathname + url.search, dvirUrl);
  const res = await fetch(local);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), file.contentType);
  assert.equal((await res.arrayBuffer()).byteLength, file.byteSize);
  local.searchParams.set('exp', String(Number(local.searchParams.get('exp')) + 1));
  assert.equal((await fetch(local)).status, 403);
});

test("another organization gets null for the demo organization's ids and never sees them", async () => {
  const demoIds = new Set([...seen.values()].flatMap((s) => [...s]));
  for (const field of dvirRoots().filter((f) => requiredArgs(f).length > 0)) {
    const ids = [...(seen.get(LOOKUPS[field.name]!) ?? [])].slice(0, 3);
    for (const id of ids) {
      const data = await gateway(tokens.other, `{ ${field.name}(id: ${JSON.stringify(id)}) { id } }`);
      // Global templates (no organization) are shared by design.
      if (field.name.startsWith('inspectionTemplate') || field.name === 'inspectionItem') continue;
      assert.equal(data[field.name], null, `${field.name}(${id})`);
    }
  }
  const lists = await gateway(
    tokens.other,
    `{ inspectionReports(pageSize: 100) { count list { id } } defects(pageSize: 100) { list { id } } inspectionAnswers(pageSize: 100) { list { id } } }`,
  );
  assert.ok(lists.inspectionReports.count > 0, 'the other organization has its own reports');
  for (const row of [...lists.inspectionReports.list, ...lists.defects.list, ...lists.inspectionAnswers.list])
    assert.ok(!demoIds.has(row.id), `the other organization sees ${row.id}`);
});

test('the rules show through the gateway: snapshot, defect from a DEFECT answer, resolution, locale fallback', async () => {
  const template = await stack
    .knex('dvir.inspection_templates as t')
    .join('fleet_contract.accounts_v1 as a', 'a.organization_id', 't.organization_id')
    .where('a.email', DEMO_EMAIL)
    .whereNull('t.group_id')
    .where('t.latest', true)
    .first('t.id', 't.version', 't.default_language');
  const oldReport = await stack
    .knex('dvir.inspection_reports')
    .where({ template_id: template.id, template_version: 1 })
    .first('id');
  const data = await gateway(
    tokens.demo,
    `query($r: ID!, $t: ID!) {
      inspectionReport(id: $r) { templateVersion inspectionAnswers(pageSize: 1) { list { itemName itemOrderPosition } } }
      inspectionTemplate(id: $t) { version inspectionItems(pageSize: 1) { list { name orderPosition } } } }`,
    { r: oldReport.id, t: template.id },
  );
  assert.equal(data.inspectionReport.templateVersion, 1);
  assert.equal(data.inspectionTemplate.version, template.version);
  const [answer] = data.inspectionReport.inspectionAnswers.list;
  const [item] = data.inspectionTemplate.inspectionItems.list;
  assert.equal(answer.itemOrderPosition, item.orderPosition);
  assert.notEqual(
    answer.itemName,
    item.name,
    'the answer keeps the name the item had (renamed in a later version)',
  );
  assert.ok(item.name.startsWith(answer.itemName));

  const defects = await gateway(
    tokens.demo,
    `{ defects(status: RESOLVED, pageSize: 50) { list { id inspectionAnswerId resolvedAt resolution resolvedByUser { id } resolvedInInspectionReport { id } mechanicName } } }`,
  );
  assert.ok(defects.defects.list.length > 0);
  for (const d of defects.defects.list) {
    assert.ok(d.resolvedAt);
    const by = {
      BY_USER: d.resolvedByUser,
      IN_LATER_REPORT: d.resolvedInInspectionReport,
      BY_MECHANIC: d.mechanicName,
    };
    assert.ok(by[d.resolution as keyof typeof by], `${d.id} ${d.resolution}`);
  }
  const answerOf = await gateway(tokens.demo, `query($id: ID!) { inspectionAnswer(id: $id) { result } }`, {
    id: defects.defects.list[0].inspectionAnswerId,
  });
  assert.equal(answerOf.inspectionAnswer.result, 'DEFECT');

  const locales = await gateway(
    tokens.demo,
    `query($r: ID) { pl: inspectionAnswers(inspectionReportId: $r, locale: PL) { list { itemName resultLabel itemCategoryLabel } }
       base: inspectionAnswers(inspectionReportId: $r) { list { itemName resultLabel itemCategoryLabel } }
       nl: inspectionAnswers(inspectionReportId: $r, locale: NL) { list { itemName resultLabel } } }`,
    { r: oldReport.id },
  );
  assert.deepEqual(locales.pl, locales.base, 'an untranslated language falls back to the default language');
  for (const a of [...locales.pl.list, ...locales.nl.list])
    assert.ok(a.itemName && a.resultLabel, 'never blank');
  if (template.default_language !== 'NL') assert.notDeepEqual(locales.nl, locales.base);
});

test('bad input through the gateway has coded errors', async () => {
  const code = async (query: string) => {
    const res = await postGraphQL(stack.platform.urls.graphql, query, { token: tokens.demo });
    assert.ok(res.errors?.length, query);
    return res.errors![0]!.extensions?.code;
  };
  assert.equal(await code('{ inspectionReports(status: BROKEN) { count } }'), 'GRAPHQL_VALIDATION_FAILED');
  assert.equal(await code('{ defects(vehicleId: "not-a-uuid") { count } }'), 'BAD_USER_INPUT');
  assert.equal(await code('{ inspectionReports(pageSize: 1000000) { count } }'), 'BAD_USER_INPUT');
  assert.equal(await code('{ inspectionAnswers(pageId: "forged") { count } }'), 'BAD_USER_INPUT');
  const lookup = await gateway(tokens.demo, '{ inspectionReport(id: "not-a-uuid") { id } }');
  assert.equal(lookup.inspectionReport, null);
});

/**
 * Ids are data, in every subgraph: through the real SSO, gateway, subgraphs and PostgreSQL on the
 * demo data, signed in as a restricted dispatcher (dispatcher.north sees only its depot's
 * subtree), every `...Id` field of every type a subgraph defines is compared with the object it
 * names, resolved through that object's owner:
 * - beside its object field (`driverId` and `driver`): the id is the object's id, or null exactly
 *   when the object is, the object selected with a real field (`driver { label }`: `driver { id }`
 *   alone is answered from the reference, without the owner) and alone (`driver { id }`), which
 *   must be null too: a reference to an unseen object is withheld;
 * - without one (`groupId`, `inspectionAnswerId`): a non-null id must be found by the root
 *   lookup of its type (`group(id:)`), which answers null for what the caller does not see;
 * - `organizationId` is the caller's own organization or null (global rows);
 * - ids of other systems (a provider's, a decoder's) are named below with the reason.
 * A reference to another subgraph's entity without an id field beside it (a transaction's
 * `driver`) is checked the same way. The rows come from a walk of the real graph: for each type,
 * the shortest path from a root field that needs no argument.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  isEnumType,
  isObjectType,
  isScalarType,
  Kind,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type GraphQLType,
  type IntrospectionQuery,
} from 'graphql';
import { DEMO_EMAIL, DEMO_PASSWORD } from '@fleetgraph/seed';
import { loadTypeDefs, type SubgraphManifest } from '@fleetgraph/subgraph-kit';
import { loadSubgraphManifests } from '@fleetgraph/subgraphs';
import { postGraphQL } from '@fleetgraph/testing';
import { requiredArgs, type AnyField } from './schema-walk';
import { startStack, type Stack } from './stack';

const DISPATCHER = 'dispatcher.north@acme.example';
const ROOT_PAGE = 100;
const NESTED_PAGE = 10;
const MAX_HOPS = 3;
const LOOKUPS_PER_REQUEST = 25;

/** Ids of other systems, not of objects of this graph: nothing to compare them with. */
const NOT_GRAPH_IDS: Record<string, string> = {
  'Booking.quotationIds': 'the workshop’s own quotation ids',
  'DecodeVinResult.companyId': 'the decoding company’s id',
  'OnboardingDistributor.providerWorkshopId': 'the workshop’s id in the provider’s system',
  'TripHarsh.tripId':
    'the trip the row hangs under (no lookup of a trip by id); its device is its visible parent',
  'TripOverspeed.tripId': 'the trip the row hangs under; its device is its visible parent',
  'TripMetadatum.tripId': 'the trip the row hangs under; its device is its visible parent',
};
/** Ids naming an account only when the column beside them says a user acted. */
const ACCOUNT_WHEN_USER: Record<string, string> = { detectedById: 'detectedBy', clearedById: 'clearedBy' };
/** A real field of an object, preferred in this order (else its first scalar). */
const REAL_FIELDS = ['label', 'name', 'fullName', 'plate', 'status', 'code', 'serialNumber', 'createdAt'];

let stack: Stack;
let schema: GraphQLSchema;
let dispatcher: string;
let admin: string;
let organizationId: string;
before(async () => {
  stack = await startStack('e2e_ids', { RATE_LIMIT_PER_MINUTE: '0' });
  dispatcher = await stack.login(DISPATCHER, DEMO_PASSWORD);
  admin = await stack.login(DEMO_EMAIL, DEMO_PASSWORD);
  const introspection = await postGraphQL(stack.platform.urls.graphql, getIntrospectionQuery(), {
    token: dispatcher,
  });
  schema = buildClientSchema(introspection.data as IntrospectionQuery);
  organizationId = (await run(dispatcher, '{ account { organizationId } }')).account.organizationId;
});
after(() => stack?.close());

async function run(token: string, query: string): Promise<any> {
  const answer = await postGraphQL(stack.platform.urls.graphql, query, { token });
  assert.equal(answer.errors, undefined, `${query.slice(0, 300)}: ${JSON.stringify(answer.errors)}`);
  assert.ok(answer.data);
  return answer.data;
}

const lower = (id: unknown) => (typeof id === 'string' ? id.toLowerCase() : id);
const lowerFirst = (name: string) => name[0]!.toLowerCase() + name.slice(1);
const isLeafType = (type: GraphQLType) => {
  const named = getNamedType(type);
  return isScalarType(named) || isEnumType(named);
};
const isIdType = (type: GraphQLType) => getNamedType(type).name === 'ID';

/** What an id field is checked against. */
type Check =
  | { kind: 'pair'; field: string; object: string; real: string }
  | { kind: 'lookup'; field: string; root: string }
  | { kind: 'byType'; field: string; typeField: string }
  | { kind: 'accountWhen'; field: string; by: string }
  | { kind: 'organization'; field: string }
  | { kind: 'reference'; object: string; real: string };

function realField(type: GraphQLObjectType): string {
  const fields = type.getFields();
  const usable = (name: string) =>
    fields[name] && isLeafType(fields[name].type) && requiredArgs(fields[name] as AnyField).length === 0;
  return REAL_FIELDS.find(usable) ?? Object.keys(fields).find((f) => f !== 'id' && usable(f))!;
}

/** The object types a subgraph defines, and the entities it only references (another's). */
async function typesOf(manifest: SubgraphManifest, manifests: SubgraphManifest[]) {
  const keyed = (m: SubgraphManifest) =>
    new Set(
      loadTypeDefs(m.schemaDir).definitions.flatMap((d) =>
        d.kind === Kind.OBJECT_TYPE_DEFINITION && d.directives?.some((x) => x.name.value === 'key')
          ? [d.name.value]
          : [],
      ),
    );
  const foreign = new Set<string>();
  for (const name of manifest.dependsOn ?? []) {
    const owner = manifests.find((m) => m.name === name)!;
    for (const type of keyed(manifest)) if (keyed(owner).has(type)) foreign.add(type);
  }
  const own = new Map<string, Set<string>>();
  for (const d of loadTypeDefs(manifest.schemaDir).definitions) {
    if (d.kind !== Kind.OBJECT_TYPE_DEFINITION && d.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
    if (d.name.value === 'Query' || foreign.has(d.name.value)) continue;
    const fields = own.get(d.name.value) ?? new Set<string>();
    for (const f of d.fields ?? []) fields.add(f.name.value);
    own.set(d.name.value, fields);
  }
  return { own, foreign };
}

/** The checks of a type's fields that this subgraph defines. */
function checksOf(type: GraphQLObjectType, defined: Set<string>, foreign: Set<string>): Check[] {
  const fields = type.getFields();
  const query = schema.getQueryType()!.getFields();
  const checks: Check[] = [];
  const paired = new Set<string>();
  for (const name of defined) {
    const field = fields[name];
    if (!field || !isIdType(field.type) || !/Ids?$/.test(name)) continue;
    if (NOT_GRAPH_IDS[`${type.name}.${name}`]) continue;
    const base = name.replace(/Ids?$/, '');
    const partner = fields[base];
    if (partner && isObjectType(getNamedType(partner.type))) {
      paired.add(base);
      checks.push({
        kind: 'pair',
        field: name,
        object: base,
        real: realField(getNamedType(partner.type) as GraphQLObjectType),
      });
    } else if (ACCOUNT_WHEN_USER[name])
      checks.push({ kind: 'accountWhen', field: name, by: ACCOUNT_WHEN_USER[name]! });
    else if (name === 'organizationId') checks.push({ kind: 'organization', field: name });
    else if (name === 'attachableId')
      checks.push({ kind: 'byType', field: name, typeField: 'attachableType' });
    else {
      const root = [lowerFirst(base), base.replace(/^.*(?=[A-Z])/, '').toLowerCase()].find((r) => query[r]);
      assert.ok(root, `${type.name}.${name}: no field beside it and no root lookup to check it with`);
      checks.push({ kind: 'lookup', field: name, root });
    }
  }
  for (const name of defined) {
    const target = fields[name] && getNamedType(fields[name].type);
    if (!target || paired.has(name) || !isObjectType(target) || !foreign.has(target.name)) continue;
    checks.push({ kind: 'reference', object: name, real: realField(target) });
  }
  return checks;
}

function selectionOf(type: GraphQLObjectType, checks: Check[]): string {
  const parts = new Set(['__typename', ...(type.getFields().id ? ['id'] : [])]);
  for (const c of checks) {
    if ('field' in c) parts.add(c.field);
    if (c.kind === 'pair' || c.kind === 'reference')
      parts.add(`${c.object} { id ${c.real} } ref_${c.object}: ${c.object} { id }`);
    if (c.kind === 'accountWhen') parts.add(c.by);
    if (c.kind === 'byType') parts.add(c.typeField);
  }
  return [...parts].join(' ');
}

const elementOf = (field: GraphQLField<unknown, unknown>): GraphQLObjectType | undefined => {
  const type = getNamedType(field.type);
  if (!isObjectType(type)) return undefined;
  if (!type.name.endsWith('Paged')) return type;
  // A page of parallel scalar lists (no `list` of objects) holds no object to look into.
  const list = type.getFields().list;
  const element = list && getNamedType(list.type);
  return element && isObjectType(element) ? element : undefined;
};

/**
 * The shortest path of fields needing no argument from a root field to `target`, as a document
 * selecting `selection` there; undefined when there is none within MAX_HOPS.
 */
function documentFor(target: GraphQLObjectType, selection: string): string | undefined {
  type Step = { type: GraphQLObjectType; wrap: (inner: string) => string; hops: number };
  const queue: Step[] = [{ type: schema.getQueryType()!, wrap: (inner) => `{ ${inner} }`, hops: 0 }];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const step = queue.shift()!;
    if (step.type === target) return step.wrap(selection);
    if (step.hops >= MAX_HOPS) continue;
    for (const field of Object.values(step.type.getFields())) {
      const element = elementOf(field);
      if (!element || requiredArgs(field as AnyField).length > 0 || seen.has(element.name)) continue;
      seen.add(element.name);
      const paged = getNamedType(field.type).name.endsWith('Paged');
      const size = field.args.some((a) => a.name === 'pageSize')
        ? `(pageSize: ${step.hops === 0 ? ROOT_PAGE : NESTED_PAGE})`
        : '';
      const wrap = (inner: string) =>
        step.wrap(`${field.name}${size} { ${paged ? `list { ${inner} }` : inner} }`);
      queue.push({ type: element, wrap, hops: step.hops + 1 });
    }
  }
  return undefined;
}

/** Every object of `typename` in an answer, wherever it sits. */
function rowsOf(value: unknown, typename: string, out: Record<string, any>[] = []): Record<string, any>[] {
  if (Array.isArray(value)) for (const item of value) rowsOf(item, typename, out);
  else if (value && typeof value === 'object') {
    const row = value as Record<string, any>;
    if (row.__typename === typename) out.push(row);
    else for (const item of Object.values(row)) rowsOf(item, typename, out);
  }
  return out;
}

/** Which of these ids the caller finds through the root lookup `root(id:)` (its owner's answer). */
async function foundByLookup(token: string, root: string, ids: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  const distinct = [...new Set(ids.map((id) => String(lower(id))))];
  for (let i = 0; i < distinct.length; i += LOOKUPS_PER_REQUEST) {
    const chunk = distinct.slice(i, i + LOOKUPS_PER_REQUEST);
    const data = await run(
      token,
      `{ ${chunk.map((id, k) => `a${k}: ${root}(id: ${JSON.stringify(id)}) { id }`).join(' ')} }`,
    );
    chunk.forEach((id, k) => {
      if (data[`a${k}`]) {
        assert.equal(lower(data[`a${k}`].id), id);
        found.add(id);
      }
    });
  }
  return found;
}

interface Tally {
  checked: number;
  /** Values the demo admin sees and the dispatcher gets as null. */
  hidden: number;
}

/** Checks every row of a type for the dispatcher; tallies by field. */
async function checkRows(
  rows: Record<string, any>[],
  adminRows: Map<string, Record<string, any>>,
  checks: Check[],
  tally: Map<string, Tally>,
) {
  const count = (name: string, value: unknown, adminValue: unknown) => {
    const t = tally.get(name) ?? { checked: 0, hidden: 0 };
    t.checked += 1;
    if (value == null && adminValue != null) t.hidden += 1;
    tally.set(name, t);
  };
  const lookups = new Map<string, { ids: string[]; label: string }>();
  const lookup = (root: string, id: string, label: string) => {
    const entry = lookups.get(root) ?? { ids: [], label };
    entry.ids.push(id);
    lookups.set(root, entry);
  };
  for (const row of rows) {
    // What the demo admin sees of the same row (rows without an id are not matched).
    const other = (row.id && adminRows.get(String(lower(row.id)))) || {};
    for (const c of checks) {
      const where = `${row.__typename} ${row.id}`;
      if (c.kind === 'pair' || c.kind === 'reference') {
        const object = row[c.object];
        const ref = row[`ref_${c.object}`];
        assert.equal(
          lower(ref?.id ?? null),
          lower(object?.id ?? null),
          `${where}: ${c.object} { id } is ${c.object}'s`,
        );
        if (object) assert.notEqual(object[c.real], undefined, `${where}: ${c.object}.${c.real} resolved`);
        if (c.kind === 'pair')
          assert.equal(
            lower(row[c.field]),
            lower(object?.id ?? null),
            `${where}: ${c.field} is ${c.object}'s id`,
          );
        const name = c.kind === 'pair' ? c.field : c.object;
        count(
          name,
          c.kind === 'pair' ? row[c.field] : object,
          c.kind === 'pair' ? other[c.field] : other[c.object],
        );
        continue;
      }
      count(c.field, row[c.field], other[c.field]);
      const id = row[c.field];
      if (id == null) continue;
      if (c.kind === 'organization')
        assert.equal(id, organizationId, `${where}: ${c.field} is the caller's organization`);
      else if (c.kind === 'lookup') lookup(c.root, id, `${where}.${c.field}`);
      else if (c.kind === 'byType') lookup(lowerFirst(row[c.typeField]), id, `${where}.${c.field}`);
      else if (row[c.by] === 'USER') lookup('account', id, `${where}.${c.field}`);
    }
  }
  for (const [root, { ids, label }] of lookups) {
    const found = await foundByLookup(dispatcher, root, ids);
    const missing = ids.filter((id) => !found.has(String(lower(id))));
    assert.deepEqual(missing, [], `${label}...: ids ${root}(id:) does not find for the caller`);
  }
}

describe('ids are data in every subgraph', async () => {
  const manifests = await loadSubgraphManifests();
  for (const manifest of manifests) {
    test(`${manifest.name}: every ...Id is null when its object is not visible, and so is every reference`, async () => {
      const { own, foreign } = await typesOf(manifest, manifests);
      const tally = new Map<string, Tally>();
      for (const [name, defined] of own) {
        const type = schema.getType(name);
        if (!isObjectType(type)) continue;
        const checks = checksOf(type, defined, foreign);
        if (checks.length === 0) continue;
        const document = documentFor(type, selectionOf(type, checks));
        // Types with no path from a root field needing no argument (a VIN decoding, say) hold no
        // id of this graph: decoders' and providers' ids are listed in NOT_GRAPH_IDS.
        if (!document) continue;
        const rows = rowsOf(await run(dispatcher, document), type.name);
        const adminRows = new Map(
          rowsOf(await run(admin, document), type.name).map((r) => [String(lower(r.id)), r]),
        );
        await checkRows(rows, adminRows, checks, tally);
      }
      const summary = Object.fromEntries(
        [...tally].map(([k, t]) => [k, `${t.checked} checked, ${t.hidden} hidden`]),
      );
      console.log(`${manifest.name}: ${JSON.stringify(summary)}`);
      if (manifest.name === 'dvir') {
        // The dispatcher reads reports of its depot's vehicles whose driver or group it does not see.
        for (const field of ['driverId', 'groupId', 'reportedByDriverId'])
          assert.ok((tally.get(field)?.hidden ?? 0) > 0, `${field}: ${JSON.stringify(summary)}`);
      }
    });
  }
});

test('the walk reaches every type holding an id of this graph', async () => {
  // A type whose ids are checked must be reachable, or its rows would never be looked at.
  for (const manifest of await loadSubgraphManifests()) {
    const { own, foreign } = await typesOf(manifest, await loadSubgraphManifests());
    for (const [name, defined] of own) {
      const type = schema.getType(name);
      if (!isObjectType(type)) continue;
      const checks = checksOf(type, defined, foreign);
      if (checks.length > 0 && !documentFor(type, 'id'))
        assert.fail(
          `${manifest.name}: ${name} holds ids (${checks.map((c) => ('field' in c ? c.field : c.object)).join(', ')}) but no walk reaches it`,
        );
    }
  }
});

test('mobility: a transaction seen through its group withholds the device, vehicle and driver the caller does not see', async () => {
  const fleet = `{ drivers(pageSize: 200) { list { id } } devices(pageSize: 500) { list { id } }
    groups(pageSize: 1) { list { id } } account { vehicles(pageSize: 200) { list { id } } } }`;
  const [mine, all] = [await run(dispatcher, fleet), await run(admin, fleet)];
  const listOf = (data: any, kind: 'drivers' | 'vehicles' | 'devices') =>
    (kind === 'vehicles' ? data.account.vehicles : data[kind]).list as { id: string }[];
  const unseen = (kind: 'drivers' | 'vehicles' | 'devices') => {
    const seen = new Set(listOf(mine, kind).map((x) => x.id));
    const other = listOf(all, kind).find((x) => !seen.has(x.id));
    assert.ok(other, `the admin sees ${kind} the dispatcher does not`);
    return other.id as string;
  };
  // A fuel-card line of the dispatcher's group naming another depot's vehicle, device and driver.
  const [row] = await stack.knex
    .raw(
      `insert into mobility.transactions (organization_id, transacted_at, quantity, quantity_unit, energy_type,
       product_category, transaction_type, source, vehicle_id, device_id, driver_id, group_id)
     select organization_id, transacted_at, quantity, quantity_unit, energy_type, product_category,
       transaction_type, source, ?, ?, ?, ? from mobility.transactions where organization_id = ? limit 1
     returning id`,
      [unseen('vehicles'), unseen('devices'), unseen('drivers'), mine.groups.list[0].id, organizationId],
    )
    .then((result: { rows: { id: string }[] }) => result.rows);
  assert.ok(row, 'a transaction to copy');
  const query = `{ mobilityTransaction(id: "${row.id}") { id group { id label } driver { id label } d: driver { id }
    vehicle { id vin } v: vehicle { id } device { id serialNumber } e: device { id } } }`;
  const control = (await run(admin, query)).mobilityTransaction;
  for (const field of ['group', 'driver', 'd', 'vehicle', 'v', 'device', 'e'])
    assert.ok(control[field], field);
  const seen = (await run(dispatcher, query)).mobilityTransaction;
  assert.equal(seen?.id, row.id, 'the dispatcher sees the transaction, through its group');
  assert.ok(seen.group, 'and its group');
  for (const field of ['driver', 'd', 'vehicle', 'v', 'device', 'e']) assert.equal(seen[field], null, field);
});

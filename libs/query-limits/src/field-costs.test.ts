import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildSchema, getOperationAST, parse } from 'graphql';
import { fieldCostsOf } from './field-costs';
import { measureOperation } from './measure';

const SDL = `
  directive @paged(default: Int!, max: Int!) on FIELD_DEFINITION
  directive @cost(weight: Int!) on FIELD_DEFINITION
  type Query {
    devices(pageSize: Int, pageId: ID): DevicePaged @paged(default: 50, max: 500)
    alpr(picture: String!): Plate @cost(weight: 1000)
    undeclared(pageSize: Int): DevicePaged
  }
  type Plate { text: String }
  type DevicePaged { list: [Device] next: ID }
  type Device {
    id: ID!
    annotations(pageSize: Int): AnnotationPaged @paged(default: 500, max: 5000)
  }
  type AnnotationPaged { ids: [ID] }
  extend type Device { readings(pageSize: Int): AnnotationPaged @paged(default: 100, max: 1000) @cost(weight: 3) }
`;
const costs = fieldCostsOf(parse(SDL));
const schema = buildSchema(SDL);

function cost(query: string): number {
  const document = parse(query);
  const operation = getOperationAST(document)!;
  return measureOperation({ schema, document, operation, costs, defaultPageSize: 7 }).cost;
}

test('the table holds every declared page size and weight by coordinate, extensions included', () => {
  assert.deepEqual(costs.get('Query.devices'), { defaultPageSize: 50, maxPageSize: 500 });
  assert.deepEqual(costs.get('Query.alpr'), { weight: 1000 });
  assert.deepEqual(costs.get('Device.readings'), { defaultPageSize: 100, maxPageSize: 1000, weight: 3 });
  assert.equal(costs.get('Query.undeclared'), undefined);
  assert.equal(fieldCostsOf(undefined).size, 0);
});

test('an omitted pageSize is costed at the field its own default, nested pages too', () => {
  // 1 + 50 * (list 1 + id 1)
  assert.equal(cost('{ devices { list { id } } }'), 101);
  // 1 + 500 * (list 1 + (annotations 1 + 500 * ids 1)) = 251,001: the same as asking 500 explicitly
  assert.equal(cost('{ devices(pageSize: 500) { list { annotations { ids } } } }'), 251_001);
  assert.equal(cost('{ devices(pageSize: 500) { list { annotations(pageSize: 500) { ids } } } }'), 251_001);
  // a field without a declaration falls back to the measure's default (7)
  assert.equal(cost('{ undeclared { list { id } } }'), 1 + 7 * 2);
});

test('a declared weight replaces the field its cost of 1, and still multiplies its page', () => {
  assert.equal(cost('{ alpr(picture: "x") { text } }'), 1001);
  // devices 1 + 1 * (list 1 + (readings 3 + 100 * ids 1))
  assert.equal(cost('{ devices(pageSize: 1) { list { readings { ids } } } }'), 105);
});

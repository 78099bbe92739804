import assert from 'node:assert/strict';
import { test } from 'node:test';
import { visibleId, visibleReference, type LookupOf } from './visible-ids';

type Ctx = { visible: Set<string>; asked: string[] };
const lookup: LookupOf<Ctx> = (c) => ({
  load: async (id: string) => {
    c.asked.push(id);
    return c.visible.has(id);
  },
});
const context = (): Ctx => ({ visible: new Set(['seen']), asked: [] });

test('an id answers null when its object is not visible, and no lookup is made for a null id', async () => {
  const c = context();
  const resolve = visibleId('driverId', lookup);
  assert.equal(await resolve({ driverId: 'seen' }, {}, c), 'seen');
  assert.equal(await resolve({ driverId: 'hidden' }, {}, c), null);
  assert.equal(await resolve({ driverId: null }, {}, c), null);
  assert.deepEqual(c.asked, ['seen', 'hidden']);
});

test('a reference to an unseen entity is withheld whole, so `x { id }` cannot echo the id', async () => {
  const c = context();
  const resolve = visibleReference('Driver', 'driverId', lookup);
  assert.deepEqual(await resolve({ driverId: 'seen' }, {}, c), { __typename: 'Driver', id: 'seen' });
  assert.equal(await resolve({ driverId: 'hidden' }, {}, c), null);
});

test('a value naming no object of the graph (no lookup for it) is answered as it is', async () => {
  const c = context();
  const byUser: LookupOf<Ctx> = (ctx, row) => (row.by === 'USER' ? lookup(ctx, row) : undefined);
  const resolve = visibleId('byId', byUser);
  assert.equal(await resolve({ by: 'SYSTEM', byId: 'rules-v1' }, {}, c), 'rules-v1');
  assert.equal(await resolve({ by: 'USER', byId: 'hidden' }, {}, c), null);
});

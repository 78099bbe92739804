import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import { AdmissionRefused, createAdmission, type WaitSignal } from './admission';

class Signal extends EventEmitter implements WaitSignal {
  aborted = false;
  reason: unknown;
  abort(reason: unknown) {
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}

const limits = { maxInFlight: 2, tenantMaxInFlight: 2, queueMax: 10, tenantQueueMax: 3 };

/** Enters and records the order in which calls are admitted. */
function recorder(admission: ReturnType<typeof createAdmission>) {
  const admitted: string[] = [];
  const releases = new Map<string, () => void>();
  const enter = (tenant: string, label: string, signal = new Signal()) =>
    admission.enter(tenant, signal).then((release) => {
      admitted.push(label);
      releases.set(label, release);
    });
  return { admitted, releases, enter };
}

test('a freed slot goes to the next tenant in turn, not to the tenant with the longest queue', async () => {
  const admission = createAdmission(limits);
  const { admitted, releases, enter } = recorder(admission);
  await Promise.all([enter('a', 'a1'), enter('a', 'a2')]);
  const waiting = [enter('a', 'a3'), enter('a', 'a4'), enter('b', 'b1'), enter('a', 'a5'), enter('b', 'b2')];
  assert.deepEqual(admission.load(), { inFlight: 2, queued: 5 });
  for (const label of ['a1', 'a2', 'a3', 'b1', 'a4', 'b2']) {
    releases.get(label)!();
    await new Promise(setImmediate);
  }
  await Promise.all(waiting);
  assert.deepEqual(admitted, ['a1', 'a2', 'a3', 'b1', 'a4', 'b2', 'a5']);
});

test("a tenant holds at most its share of the slots; others' calls pass it", async () => {
  const admission = createAdmission({ ...limits, maxInFlight: 3, tenantMaxInFlight: 1 });
  const { admitted, releases, enter } = recorder(admission);
  await enter('a', 'a1');
  const a2 = enter('a', 'a2');
  await enter('b', 'b1');
  await enter('c', 'c1');
  assert.deepEqual(admitted, ['a1', 'b1', 'c1']);
  releases.get('a1')!();
  await a2;
  assert.deepEqual(admitted, ['a1', 'b1', 'c1', 'a2']);
});

test('past the queue bounds a call is refused at once, per tenant and in all', async () => {
  const admission = createAdmission({ ...limits, maxInFlight: 1, queueMax: 4, tenantQueueMax: 2 });
  const { enter } = recorder(admission);
  await enter('a', 'a1');
  void enter('a', 'a2');
  void enter('a', 'a3');
  await assert.rejects(enter('a', 'a4'), (error: unknown) => (error as AdmissionRefused).scope === 'tenant');
  void enter('b', 'b1');
  void enter('c', 'c1');
  await assert.rejects(
    enter('d', 'd1'),
    (error: unknown) => (error as AdmissionRefused).scope === 'subgraph',
  );
});

test('a waiting call whose deadline passes leaves its queue and frees its place', async () => {
  const admission = createAdmission({ ...limits, maxInFlight: 1 });
  const { admitted, releases, enter } = recorder(admission);
  await enter('a', 'a1');
  const signal = new Signal();
  const late = enter('b', 'b1', signal);
  const next = enter('c', 'c1');
  signal.abort(new Error('deadline'));
  await assert.rejects(late, /deadline/);
  assert.deepEqual(admission.load(), { inFlight: 1, queued: 1 });
  releases.get('a1')!();
  await next;
  assert.deepEqual(admitted, ['a1', 'c1']);
});

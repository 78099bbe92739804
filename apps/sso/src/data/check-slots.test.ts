import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createCheckSlots, SlotsFull } from './check-slots';

test('no more than the limit run at once per key; the rest wait their turn and all finish', async () => {
  const slots = createCheckSlots(2);
  let running = 0;
  let peak = 0;
  const work = () =>
    slots.run(['a'], async () => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setImmediate(resolve));
      running -= 1;
      return true;
    });
  const results = await Promise.all(Array.from({ length: 10 }, work));
  assert.equal(results.filter(Boolean).length, 10, 'every attempt ran');
  assert.equal(peak, 2);
});

test('different keys do not wait on each other; shared keys taken in order cannot deadlock', async () => {
  const slots = createCheckSlots(1);
  const order: string[] = [];
  await Promise.all([
    slots.run(['x', 'y'], async () => void order.push('xy')),
    slots.run(['y', 'x'], async () => void order.push('yx')),
    slots.run(['z'], async () => void order.push('z')),
  ]);
  assert.deepEqual(order.sort(), ['xy', 'yx', 'z']);
});

test('an urgent attempt goes before every waiting one; past maxWaiting the others are refused at once', async () => {
  const slots = createCheckSlots(1, 2);
  const order: string[] = [];
  let release: () => void = () => undefined;
  const running = slots.run(['account'], () => new Promise<void>((resolve) => (release = resolve)));
  const queued = [
    slots.run(['account'], async () => void order.push('w1')),
    slots.run(['account'], async () => void order.push('w2')),
  ];
  await assert.rejects(
    slots.run(['account'], async () => void order.push('w3')),
    (error: unknown) => error instanceof SlotsFull && error.key === 'account',
  );
  const owner = slots.run(['account'], async () => void order.push('owner'), { urgent: true });
  const urgentAgain = slots.run(['account'], async () => void order.push('owner2'), { urgent: true });
  release();
  await Promise.all([running, ...queued, owner, urgentAgain]);
  assert.deepEqual(order, ['owner', 'owner2', 'w1', 'w2']);
});

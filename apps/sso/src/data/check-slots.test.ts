import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createCheckSlots } from './check-slots';

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

/**
 * Check slots: at most `limit` password checks of one key (a pair, an account) run at once in
 * this process; more wait their turn. Keys are taken in sorted order, so two attempts sharing keys
 * cannot wait on each other. Two queues per key:
 * - attempts from an address without recent failures (`urgent`) go first and are never refused:
 *   an owner signing in is not queued behind an attack on the account;
 * - attempts from an address with failures wait behind them, at most `maxWaiting` per key; past
 *   that they are refused at once (SlotsFull: the caller answers 429 with Retry-After) instead of
 *   filling the queue.
 */
export class SlotsFull extends Error {
  constructor(readonly key: string) {
    super(`too many password checks of ${key} are waiting`);
    this.name = 'SlotsFull';
  }
}

export interface CheckSlots {
  run<T>(keys: string[], work: () => Promise<T>, options?: { urgent?: boolean }): Promise<T>;
}

interface Slot {
  active: number;
  urgent: (() => void)[];
  waiting: (() => void)[];
}

export function createCheckSlots(limit: number, maxWaiting = Number.POSITIVE_INFINITY): CheckSlots {
  const slots = new Map<string, Slot>();

  async function acquire(key: string, urgent: boolean): Promise<void> {
    const slot = slots.get(key) ?? { active: 0, urgent: [], waiting: [] };
    slots.set(key, slot);
    if (slot.active >= limit) {
      const queue = urgent ? slot.urgent : slot.waiting;
      if (!urgent && queue.length >= maxWaiting) {
        if (slot.active === 0) slots.delete(key);
        throw new SlotsFull(key);
      }
      await new Promise<void>((resolve) => queue.push(resolve));
    }
    slot.active += 1;
  }

  function release(key: string): void {
    const slot = slots.get(key);
    if (!slot) return;
    slot.active -= 1;
    const next = slot.urgent.shift() ?? slot.waiting.shift();
    if (next) next();
    else if (slot.active === 0) slots.delete(key);
  }

  return {
    async run(keys, work, options = {}) {
      const ordered = [...new Set(keys)].sort();
      const taken: string[] = [];
      try {
        for (const key of ordered) {
          await acquire(key, options.urgent ?? false);
          taken.push(key);
        }
        return await work();
      } finally {
        for (const key of taken.reverse()) release(key);
      }
    },
  };
}

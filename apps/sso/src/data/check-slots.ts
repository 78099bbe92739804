/**
 * Check slots: at most `limit` password checks of one key (a pair, an account) run at once in
 * this process; more wait their turn in arrival order (never refused for it). Keys are taken in
 * sorted order, so two attempts sharing keys cannot wait on each other.
 */
export interface CheckSlots {
  run<T>(keys: string[], work: () => Promise<T>): Promise<T>;
}

interface Slot {
  active: number;
  waiting: (() => void)[];
}

export function createCheckSlots(limit: number): CheckSlots {
  const slots = new Map<string, Slot>();

  async function acquire(key: string): Promise<void> {
    const slot = slots.get(key) ?? { active: 0, waiting: [] };
    slots.set(key, slot);
    if (slot.active >= limit) await new Promise<void>((resolve) => slot.waiting.push(resolve));
    slot.active += 1;
  }

  function release(key: string): void {
    const slot = slots.get(key);
    if (!slot) return;
    slot.active -= 1;
    const next = slot.waiting.shift();
    if (next) next();
    else if (slot.active === 0) slots.delete(key);
  }

  return {
    async run(keys, work) {
      const ordered = [...new Set(keys)].sort();
      const taken: string[] = [];
      try {
        for (const key of ordered) {
          await acquire(key);
          taken.push(key);
        }
        return await work();
      } finally {
        for (const key of taken.reverse()) release(key);
      }
    },
  };
}

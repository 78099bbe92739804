/**
 * Per-request objects whose fields are made on first read. A request reads a few of a subgraph's
 * loaders, and making every loader (each a DataLoader with its closures and cache) on every
 * request cost fleet-core's cheapest query 7 % of its CPU (profiled with
 * tools/bench/src/subgraph-engine.ts). `lazyFields<Args>()(makers)` builds, once per process, a class
 * whose prototype has one getter per maker; a request then allocates one object holding its
 * arguments, and a field read calls its maker with them once and keeps the value as the
 * object's own property. Fields not yet read are not enumerable: never spread the object.
 */
export type Makers<A extends object> = Record<string, (args: A) => unknown>;
export type Made<A extends object, M extends Makers<A>> = A & { readonly [K in keyof M]: ReturnType<M[K]> };

export const lazyFields =
  <A extends object>() =>
  <M extends Makers<A>>(makers: M): ((args: A) => Made<A, M>) =>
    lazyClass<A, M>(makers);

function lazyClass<A extends object, M extends Makers<A>>(makers: M): (args: A) => Made<A, M> {
  class Fields {
    constructor(args: A) {
      Object.assign(this, args);
    }
  }
  for (const [name, make] of Object.entries(makers)) {
    Object.defineProperty(Fields.prototype, name, {
      configurable: true,
      get(this: A) {
        const value = make(this);
        Object.defineProperty(this, name, { value, enumerable: true });
        return value;
      },
    });
  }
  return (args) => new Fields(args) as Made<A, M>;
}

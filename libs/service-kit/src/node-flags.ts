/**
 * Node.js flags of every service process (`npm start -- --processes`, the benchmarks; the
 * Dockerfile sets the same in NODE_OPTIONS, and the one-process `npm start` script passes them
 * to tsx, both checked by node-flags.test.ts).
 * `--max-semi-space-size=64`: V8's young generation may grow to 64 MB semi-spaces instead of 16.
 * A request allocates rows, promises and GraphQL results that die young; with small semi-spaces
 * the scavenger was 18-24 % of a subgraph's busy CPU on a deep page (profiled).
 * Measured with tools/bench/src/subgraph-engine.ts on fleet-core, two alternating pairs with and
 * without: deep-page CPU 2.70-2.71 -> 2.47-2.52 ms per request (1.03-1.08x req/s), `account`
 * within noise (0.98-1.09x); peak resident memory 314-331 -> 405-414 MB. The young generation
 * only grows under allocation pressure; an idle service keeps its small heap.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];

/**
 * Node.js flags of every service process (`npm start -- --processes`, the benchmarks; the
 * Dockerfile sets the same in NODE_OPTIONS, and the one-process `npm start` script passes them
 * to tsx, both checked by node-flags.test.ts).
 * `--max-semi-space-size=64`: V8's young generation may grow to 64 MB semi-spaces instead of 16.
 * A request allocates rows, promises and GraphQL results that die young; with small semi-spaces
 * the scavenger takes a large share of a subgraph's busy CPU on a deep page (a profile shows it;
 * tools/bench/src/subgraph-engine.ts compares with and without). It costs resident memory under
 * load: the young generation only grows under allocation pressure; an idle service keeps its
 * small heap.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];

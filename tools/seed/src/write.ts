/** Batched multi-row inserts for the SSO users this tool writes (fleet-core has its own for its tables). */
export { insertInBatches, countRows, BATCH_SIZE } from '@fleetgraph/fleet-core';

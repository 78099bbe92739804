export { createTestIssuer, type TestIssuer, type TestUser } from './issuer';
export { dataOf, injectGraphQL, postGraphQL, createStatementCounter, type GraphQLResponse } from './http';
export { startFaultProxy, type FaultProxy } from './fault-proxy';
export { assertNoStatistics, commitWhileSecondWaits, explainNodes, rowsRead, type PlanNode } from './plans';
export { allPages, type PageRead } from './pages';
export { seededRandom } from './random';
export { metricSample } from './metrics';
export { freePort } from './ports';
export { scratchDir } from './scratch';

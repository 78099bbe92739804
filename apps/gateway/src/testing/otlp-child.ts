/**
 * Run by tracing-otlp.integration.test.ts in a process of its own (the tracer provider is
 * process-wide): a gateway configured only by the environment (OTEL_EXPORTER_OTLP_ENDPOINT)
 * answers one request, then closes, which flushes its spans to the collector.
 */
import { createTestIssuer, injectGraphQL } from '@fleetgraph/testing';
import { composeSupergraph, deadUrl, FEDERATION, startTestGateway } from './subgraphs';

const issuer = await createTestIssuer();
const supergraph = composeSupergraph([
  { name: 'a', url: await deadUrl(), typeDefs: `${FEDERATION} type Query { a: String }` },
]);
const gateway = await startTestGateway(supergraph, issuer);
const response = await injectGraphQL(gateway.app, 'query Probe { a }', {
  token: await issuer.token({ uid: 'u-1', email: 'otlp@example.test' }),
});
await gateway.close();
process.stdout.write(JSON.stringify(response.errors?.map((e) => e.extensions?.code) ?? []));

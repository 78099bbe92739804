/**
 * The peer of the gateway benchmark (tools/bench/src/gateway-peers.ts): Hive Gateway
 * (@graphql-hive/gateway-runtime, as installed with @graphql-hive/gateway) serving the committed
 * supergraph over node:http, in its own process. Its defaults are kept except:
 * - subgraph addresses: the running subgraphs' (the supergraph names the default ports);
 * - Authorization is forwarded to the subgraphs (they verify the caller), with the platform's
 *   subgraph secret when it has one (the subgraphs answer the gateway only);
 * - logging at `error` (the platform under test runs with LOG_LEVEL=silent);
 * - HIVE_DEDUP=false turns off its in-flight deduplication of identical subgraph requests.
 *
 *   HIVE_PORT=4900 SUPERGRAPH_PATH=supergraph.graphql HIVE_SUBGRAPHS='{"fleet-core":"http://..."}' \
 *   HIVE_SECRET_HEADER=x-... HIVE_SECRET=... HIVE_DEDUP=true node --import tsx tools/bench/peers/src/hive-peer.ts
 */
import { readFileSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';

// Loaded by name, untyped: its type declarations augment graphql-js's error extensions
// (http.headers as a record) in every project that imports it, which breaks the gateway's types.
const HIVE_RUNTIME = '@graphql-hive/gateway-runtime';
const { createGatewayRuntime } = (await import(HIVE_RUNTIME)) as {
  createGatewayRuntime(
    config: Record<string, unknown>,
  ): RequestListener & { dispose(): Promise<void> | void };
};

const port = Number(process.env.HIVE_PORT ?? 4900);
const subgraphs = JSON.parse(process.env.HIVE_SUBGRAPHS ?? '{}') as Record<string, string>;
const dedup = process.env.HIVE_DEDUP !== 'false';
const secretHeader = process.env.HIVE_SECRET_HEADER;
const secret = process.env.HIVE_SECRET;

const transportEntries: Record<string, Record<string, unknown>> = {};
for (const [name, url] of Object.entries(subgraphs)) transportEntries[name] = { location: url };
if (!dedup) transportEntries['*'] = { options: { deduplicateInflightRequests: false } };

const gateway = createGatewayRuntime({
  supergraph: readFileSync(process.env.SUPERGRAPH_PATH ?? 'supergraph.graphql', 'utf8'),
  transportEntries,
  logging: 'error',
  propagateHeaders: {
    fromClientToSubgraphs: ({ request }: { request: Request }) => ({
      authorization: request.headers.get('authorization'),
      ...(secretHeader && secret ? { [secretHeader]: secret } : {}),
    }),
  },
});

const server = createServer(gateway);
server.keepAliveTimeout = 30_000;
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`hive gateway (dedup ${dedup ? 'on' : 'off'}) listening on ${port}\n`);
});
const stop = () => {
  server.close();
  void Promise.resolve(gateway.dispose()).finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

/**
 * The floor of the gateway benchmark's uncached path (tools/bench/src/gateway-peers.ts, mode
 * `relay`): the cheapest way any gateway could put itself between a client and a subgraph on this
 * machine with this load. A bare node:http server in its own process that relays each request's
 * bytes to the subgraph over a keep-alive undici pool (the client's Authorization plus the
 * subgraph's shared-secret header, as the direct mode sends them) and relays the answer's bytes
 * back: no parsing, no token check, no plan, no GraphQL. A real gateway does all of those and
 * pays this relay's two HTTP hops too, so `relay / direct` is the highest `uncached / direct` any
 * gateway could print here, whatever it does.
 *
 * Routes: POST /graphql/<subgraph name>; POST /graphql goes to the first subgraph (readiness).
 *
 *   RELAY_PORT=4902 RELAY_SUBGRAPHS='{"fleet-core":"http://127.0.0.1:4001/graphql"}' \
 *   RELAY_HEADERS='{"x-fleetgraph-gateway-secret":"..."}' node --import tsx tools/bench/src/relay-peer.ts
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Pool } from 'undici';
import { serveBodies } from './bare-server';
import { loopback } from './load';

interface Upstream {
  pool: Pool;
  path: string;
}

const port = Number(process.env.RELAY_PORT ?? 4902);
const subgraphs = JSON.parse(process.env.RELAY_SUBGRAPHS ?? '{}') as Record<string, string>;
const extraHeaders = JSON.parse(process.env.RELAY_HEADERS ?? '{}') as Record<string, string>;
const upstreams = new Map<string, Upstream>(
  Object.entries(subgraphs).map(([name, href]) => {
    const url = loopback(href);
    return [
      `/graphql/${name}`,
      { pool: new Pool(url.origin, { keepAliveTimeout: 30_000 }), path: url.pathname },
    ];
  }),
);
const first = upstreams.values().next().value as Upstream | undefined;

async function relay(request: IncomingMessage, response: ServerResponse, body: Buffer): Promise<void> {
  const upstream = request.url === '/graphql' ? first : upstreams.get(request.url ?? '');
  if (!upstream) {
    response.writeHead(404).end();
    return;
  }
  const answer = await upstream.pool.request({
    path: upstream.path,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: request.headers.accept ?? 'application/json',
      ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
      ...extraHeaders,
    },
    body,
  });
  const bytes = Buffer.from(await answer.body.arrayBuffer());
  response.writeHead(answer.statusCode, {
    'content-type': String(answer.headers['content-type'] ?? 'application/json'),
    'content-length': bytes.length,
  });
  response.end(bytes);
}

serveBodies(port, relay);

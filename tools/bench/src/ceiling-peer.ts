/**
 * The ceiling of the gateway benchmark (tools/bench/src/gateway-peers.ts, mode `ceiling`): the
 * cheapest answer any gateway could give on this machine with this load. A bare node:http server
 * in its own process that forwards the first request of each (Authorization, body) pair to the
 * upstream (our gateway) and then answers every repetition with the stored bytes: no parsing, no
 * token check, no cache store, no GraphQL. A real cache hit does all of those, so its req/s
 * cannot pass this one's; `ceiling / uncached` is the highest `cached / uncached` any query
 * cache could print here, whatever it does.
 *
 *   CEILING_PORT=4901 CEILING_UPSTREAM=http://127.0.0.1:4000/graphql node --import tsx tools/bench/src/ceiling-peer.ts
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { serveBodies } from './bare-server';

interface Answer {
  status: number;
  headers: Record<string, string | number>;
  body: Buffer;
}

const port = Number(process.env.CEILING_PORT ?? 4901);
const upstream = process.env.CEILING_UPSTREAM ?? 'http://127.0.0.1:4000/graphql';
const answers = new Map<string, Answer>();

async function forward(request: IncomingMessage, body: string): Promise<Answer> {
  const response = await fetch(upstream, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: request.headers.accept ?? 'application/json',
      ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
    },
    body,
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  return {
    status: response.status,
    headers: {
      'content-type': response.headers.get('content-type') ?? 'application/json',
      'content-length': bytes.length,
    },
    body: bytes,
  };
}

async function answer(request: IncomingMessage, response: ServerResponse, bytes: Buffer): Promise<void> {
  const body = bytes.toString('utf8');
  const key = `${request.headers.authorization ?? ''}\n${body}`;
  let stored = answers.get(key);
  if (!stored) {
    stored = await forward(request, body);
    // Only a success is kept: a refusal (an expired token) is asked again next time.
    if (stored.status === 200) answers.set(key, stored);
  }
  response.writeHead(stored.status, stored.headers);
  response.end(stored.body);
}

serveBodies(port, answer);

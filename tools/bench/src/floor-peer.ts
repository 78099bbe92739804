/**
 * The floor of the subgraph engine benchmark (tools/bench/src/subgraph-engine.ts, mode `floor`):
 * the least any server could do to answer a query shape with the statements the subgraph sends
 * for it. A bare node:http server in its own process that, per request, replays the statements
 * one request of that shape sent (statement-recorder.ts), wave after wave, each wave's statements
 * side by side on a pool of the subgraph's size, every statement named (parsed and planned once
 * per connection), and answers the rows as JSON: no token check, no GraphQL, no visibility rules,
 * no objects built. A subgraph does all of those and pays this floor's round trips too, so the
 * floor's deep / small is the highest deep / small a subgraph sending these statements could
 * print here.
 *
 * Routes: POST /<shape> (the shapes of FLOOR_PLAN_FILE, a JSON map of shape to waves of
 * statements); POST /graphql answers `{"data":{}}` (readiness).
 *
 *   FLOOR_PORT=4903 FLOOR_DATABASE_URL=postgres://... FLOOR_PLAN_FILE=/tmp/plan.json \
 *   node --import tsx tools/bench/src/floor-peer.ts
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pg from 'pg';
import { statementName } from '@fleetgraph/db';
import { serveBodies } from './bare-server';
import type { RecordedStatement } from './statement-recorder';

interface NamedStatement extends RecordedStatement {
  name: string;
}

const port = Number(process.env.FLOOR_PORT ?? 4903);
const recorded = JSON.parse(readFileSync(process.env.FLOOR_PLAN_FILE ?? '', 'utf8')) as Record<
  string,
  RecordedStatement[][]
>;
const plans = new Map<string, NamedStatement[][]>(
  Object.entries(recorded).map(([shape, waves]) => [
    `/${shape}`,
    waves.map((wave) => wave.map((statement) => ({ ...statement, name: statementName(statement.text) }))),
  ]),
);
const pool = new pg.Pool({
  connectionString: process.env.FLOOR_DATABASE_URL,
  max: Number(process.env.FLOOR_POOL ?? 10),
});

async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.url === '/graphql') {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{}}');
    return;
  }
  const plan = plans.get(request.url ?? '');
  if (!plan) {
    response.writeHead(404).end();
    return;
  }
  const rows: unknown[][] = [];
  for (const wave of plan) {
    const results = await Promise.all(
      wave.map(({ name, text, values }) => pool.query({ name, text, values })),
    );
    for (const result of results) rows.push(result.rows);
  }
  const body = JSON.stringify({ data: rows });
  response.writeHead(200, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}

serveBodies(port, answer);

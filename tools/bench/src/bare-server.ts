/**
 * The bare node:http server of the benchmark's bounding peers (ceiling-peer.ts, relay-peer.ts):
 * each request's body read whole, then handed to `answer`; a failure is a 502 with its message.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export function serveBodies(
  port: number,
  answer: (request: IncomingMessage, response: ServerResponse, body: Buffer) => Promise<void>,
): void {
  createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      answer(request, response, Buffer.concat(chunks)).catch((error: unknown) => {
        response.writeHead(502, { 'content-type': 'text/plain' });
        response.end(String(error));
      });
    });
  }).listen(port, '127.0.0.1');
}

import { createServer } from 'node:net';
import { randomInt } from 'node:crypto';

/** Below Linux's ephemeral range (32768-60999): outgoing connections never take these ports. */
const RANGE = { from: 20_000, to: 32_000 };

function tryListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A port free right now on 127.0.0.1 (for tests that need to know addresses before listening).
 * It is picked at random below the ephemeral range: a port the OS hands out for port 0 can be
 * taken by any outgoing connection (a database pool, a fetch) before the caller listens on it.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = randomInt(RANGE.from, RANGE.to);
    if (await tryListen(port)) return port;
  }
  throw new Error(`no free port between ${RANGE.from} and ${RANGE.to}`);
}

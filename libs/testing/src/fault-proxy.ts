/**
 * A TCP proxy between a service and PostgreSQL that a test can break on purpose, without touching
 * the shared server: `freeze()` stops forwarding (connections stay open, bytes wait: a frozen
 * server), `stop()` drops every connection and refuses new ones (a stopped server), `resume()`
 * heals both.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface FaultProxy {
  /** The database URL through the proxy. */
  url: string;
  freeze(): void;
  stop(): void;
  resume(): void;
  close(): Promise<void>;
}

type Mode = 'open' | 'frozen' | 'stopped';

export async function startFaultProxy(databaseUrl: string): Promise<FaultProxy> {
  const target = new URL(databaseUrl);
  let mode: Mode = 'open';
  const pairs = new Set<[Socket, Socket]>();
  const waiting = new Set<() => void>();

  function pipe(client: Socket) {
    const upstream = connect({ host: target.hostname, port: Number(target.port || 5432) });
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
    if (mode === 'frozen') pause(pair);
  }
  const pause = ([a, b]: [Socket, Socket]) => {
    a.unpipe(b);
    b.unpipe(a);
    a.pause();
    b.pause();
  };

  const server: Server = createServer((client) => {
    client.on('error', () => client.destroy());
    if (mode === 'stopped') return void client.destroy();
    if (mode === 'frozen') {
      // Accepted, then nothing: like a server that no longer answers.
      waiting.add(() => pipe(client));
      return;
    }
    pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(address.port);

  const proxy: FaultProxy = {
    url: url.toString(),
    freeze() {
      mode = 'frozen';
      for (const pair of pairs) pause(pair);
    },
    stop() {
      mode = 'stopped';
      for (const [a, b] of pairs) {
        a.destroy();
        b.destroy();
      }
      pairs.clear();
      waiting.clear();
    },
    resume() {
      mode = 'open';
      for (const [a, b] of pairs) {
        a.pipe(b);
        b.pipe(a);
      }
      for (const start of waiting) start();
      waiting.clear();
    },
    async close() {
      proxy.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}

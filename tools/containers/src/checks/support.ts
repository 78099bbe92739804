/**
 * What the checks of `npm run test:containers` share: their outcome, the containers behind a
 * compose service and their own addresses (to talk to one replica, past the balancer), and
 * HAProxy's statistics (which replica the balancer sent requests to, which ones it sees up).
 */
import { execFileSync } from 'node:child_process';
import { HAPROXY_STATS_PORT } from '../compose-file';
import { COMPOSE_FILE, PROJECT } from '../platform';

export interface Outcome {
  name: string;
  ok: boolean;
  detail: string;
}

/** The id of the running container of a compose service. */
export function containerOf(service: string): string {
  return execFileSync('docker-compose', ['-p', PROJECT, '-f', COMPOSE_FILE, 'ps', '-q', service])
    .toString()
    .trim();
}

/** A container's address on the platform's network, reachable from the host. */
export function containerAddress(id: string): string {
  return execFileSync('docker', [
    'inspect',
    '-f',
    '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}',
    id,
  ])
    .toString()
    .trim();
}

/** The base URL of one replica of a service, past the balancer. */
export function replicaUrl(service: string, port: number): string {
  return `http://${containerAddress(containerOf(service))}:${port}`;
}

async function haproxyRows(): Promise<Record<string, string>[]> {
  const csv = await (await fetch(`http://127.0.0.1:${HAPROXY_STATS_PORT}/stats;csv`)).text();
  const [head, ...rows] = csv.trim().split('\n');
  const columns = (head as string).replace(/^# /, '').split(',');
  return rows
    .map((row) => {
      const cells = row.split(',');
      return Object.fromEntries(columns.map((column, i) => [column, cells[i] ?? '']));
    })
    .filter((row) => row.svname !== 'FRONTEND' && row.svname !== 'BACKEND');
}

/** HAProxy's per-server total of sessions (`stot`), by backend and server. */
export async function haproxyCounters(): Promise<Record<string, Record<string, number>>> {
  const out: Record<string, Record<string, number>> = {};
  for (const row of await haproxyRows())
    (out[row.pxname as string] ??= {})[row.svname as string] = Number(row.stot);
  return out;
}

/** Servers of each backend that HAProxy sees UP. */
export async function haproxyUp(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const row of await haproxyRows())
    if ((row.status as string).startsWith('UP'))
      (out[row.pxname as string] ??= []).push(row.svname as string);
  return out;
}

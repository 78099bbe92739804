/**
 * The PostgreSQL primary frozen under traffic (`docker pause`: connections stay open, nothing
 * answers, as a stalled disk or a stopped VM does), then thawed. Two steady clients through the
 * balanced addresses: graph queries at the gateways (their reads go to the standby) and password
 * sign-ins at the SSOs (they write to the primary). Every request in flight during the freeze
 * must end answered or with a coded error, and none may wait for the thaw: one still waiting at
 * the thaw must have waited at most the documented bound of the freeze (docs/security.md: 5 s for
 * a pooled connection, then 5 s a statement plus 1 s on the client side; the gateway gives a
 * subgraph 10 s). The freeze lasts longer than that bound, so a request that waited for the thaw
 * shows. A request that runs several statements may wait one bound per statement: its whole wait
 * is reported. After the thaw: the time until each client is answered again.
 */
import { execFileSync } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { SERVICE_DATABASE_TIMEOUTS } from '@fleetgraph/db';
import { DEMO_EMAIL, DEMO_PASSWORD } from '@fleetgraph/seed';
import { graphql, urls } from '../platform';
import { containerOf, type Outcome } from './support';

const NAME = 'primary frozen: bounded answers, then recovery';
export const FREEZE_MS = 12_000;
/** The longest a request may wait on a frozen database: a pooled connection, then a statement. */
export const BOUND_MS = SERVICE_DATABASE_TIMEOUTS.acquireMs + SERVICE_DATABASE_TIMEOUTS.statementMs + 1000;
const QUERY = '{ account { id } devices(pageSize: 5) { list { id } } }';

interface Sample {
  probe: 'query' | 'sign-in';
  at: number;
  ms: number;
  ok: boolean;
  /** GraphQL extensions.code, the OAuth error with its HTTP status, or the network error */
  code?: string;
}

async function timed(probe: Sample['probe'], work: () => Promise<string | undefined>): Promise<Sample> {
  const at = Date.now();
  try {
    const code = await work();
    return { probe, at, ms: Date.now() - at, ok: code === undefined, ...(code ? { code } : {}) };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { probe, at, ms: Date.now() - at, ok: false, code: `network: ${cause ?? (error as Error).name}` };
  }
}

async function signInCode(): Promise<string | undefined> {
  const response = await fetch(`${urls.sso}/oauth/token`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: DEMO_EMAIL, password: DEMO_PASSWORD }),
    signal: AbortSignal.timeout(30_000),
  });
  const body = (await response.json().catch(() => ({}))) as { access_token?: string; error?: string };
  return response.ok && body.access_token ? undefined : `HTTP ${response.status} ${body.error ?? ''}`.trim();
}

async function queryCode(token: string): Promise<string | undefined> {
  const answer = await graphql(token, QUERY, {}, 30_000);
  if (answer.status === 200 && !answer.body.errors && answer.body.data?.account) return undefined;
  const error = answer.body.errors?.[0];
  return `HTTP ${answer.status} ${error?.extensions?.code ?? error?.message.slice(0, 60) ?? ''}`.trim();
}

export interface FreezeFigures {
  outcome: Outcome;
  /** Lines of the results' figures. */
  figures: string[];
  /** Every request, for a closer look (`at` relative to the freeze). */
  samples: Sample[];
}

export async function freezePrimary(token: string): Promise<FreezeFigures> {
  const samples: Sample[] = [];
  let running = true;
  const loop = async (probe: Sample['probe'], work: () => Promise<string | undefined>, pauseMs: number) => {
    while (running) {
      samples.push(await timed(probe, work));
      await delay(pauseMs);
    }
  };
  // Under the user's rate limit (10 a second): about 5 queries and 2 sign-ins a second.
  const loops = Promise.all([loop('query', () => queryCode(token), 150), loop('sign-in', signInCode, 400)]);
  const primary = containerOf('postgres');
  await delay(2000);
  const frozenAt = Date.now();
  execFileSync('docker', ['pause', primary]);
  let thawedAt = 0;
  try {
    await delay(FREEZE_MS);
  } finally {
    execFileSync('docker', ['unpause', primary]);
    thawedAt = Date.now();
  }
  // Until each client has been answered by a request sent after the thaw (at most a minute).
  const recovered = (probe: Sample['probe']) =>
    samples.find((s) => s.probe === probe && s.ok && s.at >= thawedAt);
  while (Date.now() - thawedAt < 60_000 && !(recovered('query') && recovered('sign-in'))) await delay(100);
  await delay(1000);
  running = false;
  await loops;

  const lines: string[] = [];
  let ok = true;
  const rows: string[] = [];
  for (const probe of ['query', 'sign-in'] as const) {
    // Every request in flight at some point of the freeze, those sent just before it included.
    const during = samples.filter((s) => s.probe === probe && s.at < thawedAt && s.at + s.ms > frozenAt);
    const failed = during.filter((s) => !s.ok);
    const codes: Record<string, number> = {};
    for (const s of failed) codes[s.code as string] = (codes[s.code as string] ?? 0) + 1;
    const maxMs = Math.max(0, ...during.map((s) => s.ms));
    // The part of its wait a request spent while the primary was frozen.
    const frozenWait = (s: Sample) => Math.min(s.at + s.ms, thawedAt) - Math.max(s.at, frozenAt);
    const maxFrozenMs = Math.max(0, ...during.map(frozenWait));
    // A request still waiting at the thaw after more than the bound waited for the thaw itself.
    const hung = during.filter((s) => s.at + s.ms > thawedAt && frozenWait(s) > BOUND_MS).length;
    const back = recovered(probe);
    const recoveryMs = back ? back.at + back.ms - thawedAt : undefined;
    const uncoded = failed.filter((s) => s.code?.startsWith('network:')).length;
    ok &&= hung === 0 && uncoded === 0 && recoveryMs !== undefined;
    const codeList = Object.entries(codes)
      .map(([code, n]) => `${code} ×${n}`)
      .join(', ');
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    rows.push(
      `| ${probe === 'query' ? 'graph queries (gateways)' : 'password sign-ins (SSOs)'} | ${during.length} | ${during.length - failed.length} | ${failed.length}${codeList ? ` (${codeList})` : ''} | ${seconds(maxMs)} (${seconds(maxFrozenMs)} of it frozen) | ${hung} | ${recoveryMs === undefined ? 'not within 60 s' : seconds(recoveryMs)} |`,
    );
    lines.push(
      `${probe}: ${during.length} in flight while frozen, ${during.length - failed.length} answered, ${failed.length} failed${codeList ? ` (${codeList})` : ''}, longest ${maxMs} ms (${maxFrozenMs} ms of it frozen), ${hung} waited for the thaw; answered again ${recoveryMs ?? 'never'} ms after the thaw`,
    );
  }
  return {
    outcome: {
      name: NAME,
      ok,
      detail: `primary paused ${FREEZE_MS / 1000} s (bound ${BOUND_MS / 1000} s of waiting on it): ${lines.join('; ')}`,
    },
    figures: [
      '',
      `Primary frozen (\`docker pause\`) for ${FREEZE_MS / 1000} s under traffic; a request still waiting at the thaw after ${BOUND_MS / 1000} s of the freeze waited for the thaw.`,
      '',
      '| client | in flight while frozen | answered | failed (what they got) | longest wait | waited for the thaw | answered again after the thaw |',
      '|---|---|---|---|---|---|---|',
      ...rows,
    ],
    samples: samples.map((s) => ({ ...s, at: s.at - frozenAt })),
  };
}

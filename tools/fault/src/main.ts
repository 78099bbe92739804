/**
 * `npm run fault`: breaks a running platform on purpose while traffic flows, and prints what
 * clients saw. Start the platform first (`npm start`, or `npm start -- --processes` for the
 * subgraph fault), then in another terminal `npm run fault`.
 *
 * Faults, one after the other, each followed by a settle time:
 * - freeze-database: SIGSTOP the embedded PostgreSQL (postmaster and backends) for --freeze-ms,
 *   then SIGCONT (a frozen server: connections open, nothing answers);
 * - restart-database: `pg_ctl restart -m fast` on the embedded data folder (every connection
 *   dropped, the server away for a moment);
 * - kill-subgraph: SIGKILL fleet-core's process (only with --processes), then start it again with
 *   its own command line and environment.
 * For each: requests sent, errors seen by code, longest wait of one request, and the recovery
 * time (from the fault's end to the first success of both probes). A real PostgreSQL: the
 * database faults are skipped (no embedded data folder); stop or pause it yourself meanwhile.
 */
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { embeddedBinaries, serverUser } from '@fleetgraph/db';
import { dataDir } from '@fleetgraph/service-kit';
import { databaseProcesses, postmasterPid, serviceProcess } from './processes';
import { startProbes, summarise, type FaultSummary } from './probes';

const { values } = parseArgs({
  options: {
    gateway: { type: 'string', default: process.env.GATEWAY_URL ?? 'http://localhost:4000' },
    sso: { type: 'string', default: process.env.SSO_URL ?? 'http://localhost:4100' },
    email: { type: 'string', default: 'demo@fleetgraph.dev' },
    password: { type: 'string', default: 'fleetgraph-demo' },
    'freeze-ms': { type: 'string', default: '5000' },
    'settle-ms': { type: 'string', default: '5000' },
    only: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(
    'usage: npm run fault [-- --gateway URL --sso URL --email E --password P --freeze-ms 5000 --settle-ms 5000 --only freeze-database|restart-database|kill-subgraph]',
  );
  process.exit(0);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const settleMs = Number(values['settle-ms']);
const log = (line: string) => process.stderr.write(`${line}\n`);

interface Fault {
  name: string;
  /** Why it cannot run here, if it cannot. */
  unavailable(): string | undefined;
  /** Breaks, heals, and answers when it healed (epoch ms). */
  run(): Promise<number>;
}

function signalAll(pids: number[], signal: NodeJS.Signals) {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // a backend that ended meanwhile
    }
  }
}

const faults: Fault[] = [
  {
    name: 'freeze-database',
    unavailable: () => (postmasterPid(dataDir) ? undefined : `no embedded database in ${dataDir}`),
    async run() {
      const pids = databaseProcesses(postmasterPid(dataDir)!);
      signalAll(pids, 'SIGSTOP');
      await sleep(Number(values['freeze-ms']));
      signalAll(databaseProcesses(postmasterPid(dataDir)!), 'SIGCONT');
      return Date.now();
    },
  },
  {
    name: 'restart-database',
    unavailable: () => (postmasterPid(dataDir) ? undefined : `no embedded database in ${dataDir}`),
    async run() {
      const { pg_ctl } = await embeddedBinaries();
      const args = [
        'restart',
        '-D',
        join(dataDir, 'pg'),
        '-m',
        'fast',
        '-w',
        '-l',
        join(dataDir, 'pg', 'restart.log'),
        // inside the data folder: the server's user may write there
      ];
      // As root, as the `postgres` system user that runs the embedded server.
      execFileSync(pg_ctl, args, await serverUser());
      return Date.now();
    },
  },
  {
    name: 'kill-subgraph',
    unavailable: () =>
      serviceProcess('fleet-core') ? undefined : 'fleet-core is not its own process (start with --processes)',
    async run() {
      const victim = serviceProcess('fleet-core')!;
      process.kill(victim.pid, 'SIGKILL');
      await sleep(2_000);
      const [command, ...args] = victim.argv;
      spawn(command!, args, { cwd: victim.cwd, env: victim.env, detached: true, stdio: 'ignore' }).unref();
      return Date.now();
    },
  },
];

function print(summary: FaultSummary) {
  const errors = Object.entries(summary.errors)
    .map(([code, n]) => `${code} x${n}`)
    .join(', ');
  console.log(
    `${summary.fault.padEnd(17)} requests ${String(summary.requests).padStart(4)}  longest wait ${String(summary.longestWaitMs).padStart(6)} ms  ` +
      `recovery ${summary.recoveryMs === undefined ? 'NOT RECOVERED' : `${summary.recoveryMs} ms`}  errors: ${errors || 'none'}`,
  );
}

const probes = startProbes({
  gateway: values.gateway!,
  sso: values.sso!,
  email: values.email!,
  password: values.password!,
});
await sleep(2_000);
const baseline = summarise('baseline', probes.samples, 0, 0, Date.now());
print({ ...baseline, recoveryMs: 0 });
for (const fault of faults) {
  if (values.only && values.only !== fault.name) continue;
  const reason = fault.unavailable();
  if (reason) {
    console.log(`${fault.name.padEnd(17)} skipped: ${reason}`);
    continue;
  }
  log(`${fault.name}...`);
  const from = Date.now();
  const healedAt = await fault.run();
  await sleep(settleMs);
  print(summarise(fault.name, probes.samples, from, healedAt, Date.now()));
}
await probes.stop();

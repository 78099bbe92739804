/**
 * The running platform's processes, found from what they leave on the machine: the embedded
 * PostgreSQL's postmaster.pid, and each service started by `npm start -- --processes` by the
 * entry file in its command line (/proc). Linux only.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

export interface ServiceProcess {
  pid: number;
  /** The command line, and the environment, to start it again the same way. */
  argv: string[];
  env: Record<string, string>;
  cwd: string;
}

export function postmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** The postmaster and its children (backends, checkpointer...): a freeze stops them all. */
export function databaseProcesses(postmaster: number): number[] {
  const children = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
      } catch {
        return false;
      }
    });
  return [postmaster, ...children];
}

/** The process serving one app when the platform runs with --processes (its `apps/<name>/src/main.ts`). */
export function serviceProcess(app: string): ServiceProcess | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (!argv.some((arg) => arg.endsWith(`apps/${app}/src/main.ts`))) continue;
      const env = Object.fromEntries(
        readFileSync(`/proc/${entry}/environ`, 'utf8')
          .split('\0')
          .filter(Boolean)
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      );
      const cwd = readlinkSync(`/proc/${entry}/cwd`);
      return { pid: Number(entry), argv, env, cwd };
    } catch {
      continue;
    }
  }
  return undefined;
}

/* global process */
/**
 * `node --cpu-prof` for processes the benchmark does not start itself (NODE_OPTIONS refuses
 * --cpu-prof): preloaded with `--import`, it records a V8 CPU profile of this process when its
 * entry script's path contains BENCH_PROFILE_MATCH (e.g. `apps/gateway`), and writes
 * <BENCH_PROFILE_DIR>/<entry>-<pid>.cpuprofile when the process exits (open it in Chrome DevTools
 * or read it with tools/bench/src/cpu-profile-top.mjs).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { basename, dirname, join } from 'node:path';

const dir = process.env.BENCH_PROFILE_DIR;
const match = process.env.BENCH_PROFILE_MATCH ?? '';
const entry = process.argv[1] ?? '';
if (dir && entry.includes(match)) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  session.post('Profiler.start');
  process.once('exit', () => {
    // The in-thread session answers synchronously, so the profile is written before exit.
    session.post('Profiler.stop', (error, result) => {
      if (error) return;
      const name = `${basename(dirname(dirname(entry)))}-${basename(entry, '.ts')}-${process.pid}.cpuprofile`;
      writeFileSync(join(dir, name), JSON.stringify(result.profile));
    });
  });
}

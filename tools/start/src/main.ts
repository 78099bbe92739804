/**
 * `npm start`: the whole platform on this machine, with zero setup.
 * `npm start -- --processes`: the same, each service in its own process (as docker-compose runs
 * them), so one can be killed, restarted or profiled alone and every core is used.
 */
import { dataDir, onShutdown } from '@fleetgraph/service-kit';
import { banner } from './banner';
import { startPlatform } from './platform';

const USAGE = 'usage: npm start [-- --processes]';
const log = (line: string) => process.stderr.write(`${line}\n`);
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
const unknown = args.filter((a) => a !== '--processes');
if (unknown.length > 0) {
  log(`unknown argument ${JSON.stringify(unknown[0])}\n${USAGE}`);
  process.exit(2);
}
try {
  const platform = await startPlatform({ dataDir, log, processes: args.includes('--processes') });
  process.stdout.write(banner(platform));
  onShutdown(platform.close, log);
} catch (error) {
  log(`Fleetgraph failed to start: ${(error as Error).message}`);
  process.exit(1);
}

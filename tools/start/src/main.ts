/** `npm start`: the whole platform on this machine, with zero setup. */
import { dataDir, onShutdown } from '@fleetgraph/service-kit';
import { banner } from './banner';
import { startPlatform } from './platform';

const log = (line: string) => process.stderr.write(`${line}\n`);
try {
  const platform = await startPlatform({ dataDir, log });
  process.stdout.write(banner(platform));
  onShutdown(platform.close, log);
} catch (error) {
  log(`Fleetgraph failed to start: ${(error as Error).message}`);
  process.exit(1);
}

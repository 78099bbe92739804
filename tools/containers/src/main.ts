/**
 * `npm run containers -- <command>`, the replicated platform on containers:
 *   build    the base images (offline; kept when present) and the Fleetgraph image
 *   up       builds what is missing, starts everything, waits for a query through the balancer,
 *            prints the banner
 *   down     stops and removes the containers (data kept in volumes; `down --volumes` drops it)
 *   test     `npm run test:containers`: the checks and the fault drill (tools/containers/src/check.ts)
 *   render   rewrites deploy/containers/docker-compose.yml and haproxy.cfg from the manifests
 */
import { build, up } from './actions';
import { compose, render } from './platform';

const log = (line: string) => console.error(`[containers] ${line}`);

async function main(): Promise<void> {
  const [command = 'up', ...rest] = process.argv.slice(2);
  switch (command) {
    case 'render':
      await render();
      return;
    case 'build':
      await render();
      await build();
      return;
    case 'up':
      await up({ build: rest.includes('--build') });
      return;
    case 'down':
      await compose(['down', ...(rest.includes('--volumes') ? ['--volumes'] : [])]);
      return;
    case 'test': {
      const { runChecks } = await import('./check');
      process.exitCode = (await runChecks({ reuse: rest.includes('--reuse') })) ? 0 : 1;
      return;
    }
    default:
      throw new Error(`unknown command ${command}: build | up [--build] | down [--volumes] | test | render`);
  }
}

main().catch((error: Error) => {
  log(error.message);
  process.exit(1);
});

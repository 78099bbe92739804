/**
 * `tsx tools/containers/src/bundle-main.ts [--node-modules]`: writes `dist/<app>/main.js` for every
 * service and the prepare job; with --node-modules, also `dist/node_modules` (the packages the
 * bundles import, with their dependencies) and `dist/package.json`, which the runtime image copies.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@fleetgraph/service-kit';
import { bundleAll, copyPackageClosure, writeJson } from './bundle';

const outDir = join(repoRoot, 'dist');
rmSync(outDir, { recursive: true, force: true });
const started = Date.now();
const { outputs, packages, filesOnly } = await bundleAll({ outDir });
for (const [file, bytes] of Object.entries(outputs)) console.log(`${file}  ${(bytes / 1e6).toFixed(1)} MB`);
console.log(`bundled in ${Date.now() - started} ms; external packages: ${packages.join(' ')}`);
if (process.argv.includes('--node-modules')) {
  const copied = copyPackageClosure(packages, repoRoot, outDir, filesOnly);
  writeJson(join(outDir, 'package.json'), { name: 'fleetgraph-runtime', private: true, type: 'module' });
  console.log(`node_modules: ${copied.length} packages`);
}

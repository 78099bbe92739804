/**
 * `npm run deploy:render` writes deploy/kubernetes from the subgraph manifests;
 * `npm run deploy:render -- --check` fails when the committed files are stale.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deployDir, deployedSubgraphs, renderKubernetes, staleFiles, workspaceTag } from './render';

const check = process.argv.includes('--check');
const dir = deployDir();
const rendered = await renderKubernetes(await deployedSubgraphs(), { tag: workspaceTag() });
if (check) {
  const stale = staleFiles(rendered, dir);
  if (stale.length > 0) {
    console.error(
      `deploy/kubernetes is stale: run \`npm run deploy:render\` and commit the result\n${stale.map((s) => `  - ${s}`).join('\n')}`,
    );
    process.exit(1);
  }
  console.log(`deploy/kubernetes is up to date (${rendered.size} files)`);
} else {
  mkdirSync(dir, { recursive: true });
  // A subgraph removed from apps/ leaves no objects behind.
  for (const name of readdirSync(dir))
    if (name.endsWith('.yaml') && !rendered.has(name)) rmSync(join(dir, name));
  for (const [name, text] of rendered) writeFileSync(join(dir, name), text);
  console.log(`wrote ${rendered.size} files to ${dir}`);
}

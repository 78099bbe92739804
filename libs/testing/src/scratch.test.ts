import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const scratch = fileURLToPath(new URL('./scratch.ts', import.meta.url));

/** Runs a child that makes folders, writes into them and ends as `ending` says; returns their paths. */
function foldersOfChild(ending: string): { dirs: string[]; existed: boolean } {
  const script = `
    import { existsSync, writeFileSync } from 'node:fs';
    import { join } from 'node:path';
    const { scratchDir } = await import(${JSON.stringify(scratch)});
    const dirs = [scratchDir('scratch-test'), scratchDir('scratch-test')];
    for (const dir of dirs) writeFileSync(join(dir, 'f.txt'), 'x');
    process.stdout.write(JSON.stringify({ dirs, existed: dirs.every((d) => existsSync(join(d, 'f.txt'))) }));
    ${ending}
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }).toString();
  return JSON.parse(out) as { dirs: string[]; existed: boolean };
}

test('scratch folders exist while the process runs and are gone once it ends', () => {
  const { dirs, existed } = foldersOfChild('');
  assert.equal(existed, true);
  assert.equal(dirs.length, 2);
  assert.notEqual(dirs[0], dirs[1]);
  for (const dir of dirs) assert.equal(existsSync(dir), false, `${dir} is left behind`);
});

test('scratch folders are removed when the process ends with process.exit', () => {
  const { dirs } = foldersOfChild('process.exit(0);');
  assert.equal(dirs.length, 2);
  for (const dir of dirs) assert.equal(existsSync(dir), false, `${dir} is left behind`);
});

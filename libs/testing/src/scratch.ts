import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made = new Set<string>();

function removeAll(): void {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made.clear();
}

/**
 * A new empty folder under the OS temp folder, removed with everything in it when this process
 * exits, however the test file ends (pass, fail, or process.exit). Tests never leave folders behind.
 */
export function scratchDir(prefix: string): string {
  if (made.size === 0) process.once('exit', removeAll);
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  made.add(dir);
  return dir;
}

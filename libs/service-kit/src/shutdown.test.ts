import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const shutdown = fileURLToPath(new URL('./shutdown.ts', import.meta.url));

/** A child whose close never finishes (or finishes at once): it prints `ready` once its handler is set. */
function childWithShutdown(close: 'hangs' | 'finishes') {
  const script = `
    const { onShutdown } = await import(${JSON.stringify(shutdown)});
    onShutdown(() => ${close === 'hangs' ? 'new Promise(() => setInterval(() => {}, 1000))' : 'Promise.resolve()'},
      (line) => process.stdout.write(line + '\\n'));
    setInterval(() => {}, 1000);
    process.stdout.write('ready\\n');
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const waiters: Array<() => void> = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    for (const wake of waiters.splice(0)) wake();
  });
  const printed = async (line: string) => {
    while (!out.includes(`${line}\n`)) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return { child, printed, output: () => out };
}

test('the first signal closes and exits 0 after logging stopped', async () => {
  const { child, printed, output } = childWithShutdown('finishes');
  await printed('ready');
  child.kill('SIGTERM');
  const [code] = await once(child, 'exit');
  assert.equal(code, 0);
  assert.equal(output(), 'ready\nSIGTERM: shutting down\nstopped\n');
});

test('a second Ctrl-C during a slow close is logged and exits 1 at once', async () => {
  const { child, printed, output } = childWithShutdown('hangs');
  await printed('ready');
  child.kill('SIGINT');
  await printed('SIGINT: shutting down');
  child.kill('SIGINT');
  const [code, signal] = await once(child, 'exit');
  assert.deepEqual([code, signal], [1, null]);
  assert.equal(output(), 'ready\nSIGINT: shutting down\nSIGINT again: exiting now\n');
});

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { SERVICE_NODE_FLAGS } from './node-flags';
import { repoRoot } from './paths';

test('the container image runs the services with the same Node.js flags as npm start and the benchmarks', () => {
  const dockerfile = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');
  const line = /^ENV NODE_OPTIONS=(.*)$/m.exec(dockerfile);
  assert.ok(line, 'the Dockerfile sets NODE_OPTIONS');
  assert.deepEqual(line[1]!.trim().split(/\s+/), [...SERVICE_NODE_FLAGS]);
});

test('npm start runs the one-process platform under node itself, with the same Node.js flags', () => {
  const { scripts } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  const words: string[] = scripts.start.trim().split(/\s+/);
  // node, not the tsx CLI: Ctrl-C must reach the platform itself (package.json, 214dd5f).
  assert.deepEqual(words, ['node', ...SERVICE_NODE_FLAGS, '--import', 'tsx', 'tools/start/src/main.ts']);
});

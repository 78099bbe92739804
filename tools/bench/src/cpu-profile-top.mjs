/* global process, console */
/**
 * Top frames of a V8 CPU profile (.cpuprofile, from cpu-profile.mjs or node --cpu-prof): self time
 * by function and by package.   node tools/bench/src/cpu-profile-top.mjs <file> [rows]
 */
import { readFileSync } from 'node:fs';
const [file, n = 30] = process.argv.slice(2);
const p = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(p.nodes.map((x) => [x.id, x]));
const dt = new Map();
for (let i = 0; i < p.samples.length; i++)
  dt.set(p.samples[i], (dt.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
let total = 0;
const self = new Map();
const pkg = new Map();
for (const [id, t] of dt) {
  const nd = byId.get(id);
  const cf = nd.callFrame;
  total += t;
  const url = cf.url.replace(/^file:\/\//, '').replace('/work/main/', '');
  const key = `${cf.functionName || '(anon)'} ${url.split('/').slice(-3).join('/')}:${cf.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + t);
  const m = url.match(/node_modules\/((@[^/]+\/)?[^/]+)/);
  const k = m
    ? m[1]
    : url.startsWith('node:')
      ? url.split('/')[0]
      : url === ''
        ? cf.functionName
        : url.split('/').slice(0, 2).join('/');
  pkg.set(k, (pkg.get(k) ?? 0) + t);
}
const show = (map, title) => {
  console.log(`-- ${title} (total ${(total / 1e6).toFixed(2)} s)`);
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(n))
    .forEach(([k, t]) => console.log(`${((100 * t) / total).toFixed(1).padStart(5)}%  ${k}`));
};
show(self, 'self time by function');
show(pkg, 'self time by package');

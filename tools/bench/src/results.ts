/**
 * Where a benchmark's figures go: one dated Markdown file per run under tools/bench/results/
 * (`YYYY-MM-DD-<name>.md`, a run of the same day appended as a new section), headed by the command,
 * the commit and the machine, so a figure quoted anywhere can be traced to the run that made it.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '@fleetgraph/service-kit';

export const RESULTS_DIR = join(repoRoot, 'tools/bench/results');

function commit(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot }).toString().trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: repoRoot }).toString().trim();
    return dirty ? `${sha} (with uncommitted changes)` : sha;
  } catch {
    return 'unknown';
  }
}

/** The machine as a run saw it: CPU model and cores, memory, load before the run. */
export function machine(): string {
  const [cpu] = cpus();
  return `${cpus().length} × ${cpu?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;
}

/**
 * Writes a run's report: `command` is how to run it again, `body` the figures (Markdown). Returns
 * the file written.
 */
export function writeResult(name: string, command: string, body: string, now = new Date()): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${now.toISOString().slice(0, 10)}-${name}.md`);
  const section = [
    `## ${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    '',
    `- command: \`${command}\``,
    `- commit: ${commit()}`,
    `- machine: ${machine()}`,
    '',
    body.trim(),
    '',
  ].join('\n');
  if (existsSync(file)) appendFileSync(file, `\n${section}`);
  else writeFileSync(file, `# ${name}\n\n${section}`);
  return file;
}

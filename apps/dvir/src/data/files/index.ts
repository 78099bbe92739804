import type { DvirConfig } from '../../config';
import { FileService } from './service';
import { UrlSigner } from './signing';
import { localStorage, s3Storage } from './storage';

/** The file service the config describes (S3 when a bucket is configured, else local files). */
export function fileServiceFor(
  config: Pick<
    DvirConfig,
    's3' | 'filesDir' | 'fileUrlSecret' | 'fileUrlTtlS' | 'publicUrl' | 'clock' | 'downloads'
  >,
) {
  const storage = config.s3 ? s3Storage(config.s3) : localStorage(config.filesDir);
  return new FileService(
    storage,
    new UrlSigner(config.fileUrlSecret, config.fileUrlTtlS, config.clock),
    config.publicUrl,
    config.fileUrlTtlS,
    config.downloads,
  );
}
export { FileService } from './service';
export { UrlSigner } from './signing';
export { sniffContentType } from './sniff';

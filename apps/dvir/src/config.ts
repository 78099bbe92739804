import { createHmac } from 'node:crypto';
import { dataDir, envField, parseEnv, z } from '@fleetgraph/service-kit';
import { loadSubgraphConfig, type SubgraphConfig } from '@fleetgraph/subgraph-kit';
import type { DownloadLimits } from './files/service';
import type { S3Settings } from './files/storage';
import { defaultLocalRoot } from './files/storage';

export interface DvirConfig extends SubgraphConfig {
  /** Base URL of this service as clients reach it, for signed file URLs (DVIR_PUBLIC_URL). */
  publicUrl: string;
  /** Lifetime of a file URL in seconds (DVIR_FILE_URL_TTL_S, default 300). */
  fileUrlTtlS: number;
  /** HMAC key of file URLs (DVIR_FILE_URL_SECRET; default derived from PAGING_SECRET). */
  fileUrlSecret: string;
  /** Folder of the local file storage (DVIR_FILES_DIR, default <dataDir>/dvir-files). */
  filesDir: string;
  /** S3-compatible storage, when DVIR_S3_BUCKET is set. */
  s3: S3Settings | undefined;
  /**
   * What one client address may download from /files: starts per minute (DVIR_FILES_PER_MINUTE,
   * default 120) and downloads at once (DVIR_FILES_CONCURRENT_PER_ADDRESS, default 4).
   */
  downloads: DownloadLimits;
  /** Clock of URL signing (tests inject one; not from the environment). */
  clock?: () => number;
}

export function loadDvirConfig(env: Record<string, string | undefined> = process.env): DvirConfig {
  const base = loadSubgraphConfig('dvir', 'DVIR', 4002, env);
  const own = parseEnv(
    'dvir',
    z.object({
      DVIR_PUBLIC_URL: z.string().url().optional(),
      DVIR_FILE_URL_TTL_S: envField.int(300, 1),
      DVIR_FILE_URL_SECRET: z.string().min(16, 'must have at least 16 characters').optional(),
      DVIR_FILES_DIR: z.string().min(1).optional(),
      DVIR_S3_ENDPOINT: z.string().url().optional(),
      DVIR_S3_PUBLIC_ENDPOINT: z.string().url().optional(),
      DVIR_S3_BUCKET: z.string().min(3).optional(),
      DVIR_S3_REGION: z.string().min(1).default('us-east-1'),
      DVIR_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
      DVIR_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
      DVIR_S3_FORCE_PATH_STYLE: envField.bool(true),
      DVIR_FILES_PER_MINUTE: envField.int(120, 1),
      DVIR_FILES_CONCURRENT_PER_ADDRESS: envField.int(4, 1),
    }),
    env,
  );
  return {
    ...base,
    publicUrl: own.DVIR_PUBLIC_URL ?? `http://localhost:${base.port}`,
    fileUrlTtlS: own.DVIR_FILE_URL_TTL_S,
    fileUrlSecret:
      own.DVIR_FILE_URL_SECRET ??
      createHmac('sha256', base.pagingSecret).update('dvir file urls').digest('base64url'),
    filesDir: own.DVIR_FILES_DIR ?? defaultLocalRoot(dataDir),
    downloads: {
      perMinute: own.DVIR_FILES_PER_MINUTE,
      concurrentPerAddress: own.DVIR_FILES_CONCURRENT_PER_ADDRESS,
    },
    s3: own.DVIR_S3_BUCKET
      ? {
          endpoint: own.DVIR_S3_ENDPOINT,
          publicEndpoint: own.DVIR_S3_PUBLIC_ENDPOINT,
          bucket: own.DVIR_S3_BUCKET,
          region: own.DVIR_S3_REGION,
          accessKeyId: own.DVIR_S3_ACCESS_KEY_ID,
          secretAccessKey: own.DVIR_S3_SECRET_ACCESS_KEY,
          forcePathStyle: own.DVIR_S3_FORCE_PATH_STYLE,
        }
      : undefined,
  };
}

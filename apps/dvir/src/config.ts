import { randomBytes } from 'node:crypto';
import { resolve, sep } from 'node:path';
import { dataDir, envField, parseEnv, secretsDir, z } from '@fleetgraph/service-kit';
import { loadSubgraphConfig, type SubgraphConfig } from '@fleetgraph/subgraph-kit';
import type { DownloadLimits } from './data/files/service';
import type { S3Settings } from './data/files/storage';
import { defaultLocalRoot } from './data/files/storage';

export interface DvirConfig extends SubgraphConfig {
  /** Base URL of this service as clients reach it, for signed file URLs (DVIR_PUBLIC_URL). */
  publicUrl: string;
  /** Lifetime of a file URL in seconds (DVIR_FILE_URL_TTL_S, default 300). */
  fileUrlTtlS: number;
  /**
   * HMAC key of file URLs (DVIR_FILE_URL_SECRET, a secret of its own: `npm start` generates one).
   * Unset: a random key per process (URLs die with it); required with NODE_ENV=production when
   * files are served by dvir itself (no S3).
   */
  fileUrlSecret: string;
  /** Largest attachment an import takes, in bytes (DVIR_MAX_ATTACHMENT_BYTES, default 20 MiB). */
  maxAttachmentBytes: number;
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

/** Whether one folder is the other or holds it. */
const overlap = (a: string, b: string) => {
  const [x, y] = [resolve(a), resolve(b)];
  return x === y || x.startsWith(y + sep) || y.startsWith(x + sep);
};

/** The default of DVIR_MAX_ATTACHMENT_BYTES: a phone photo or a scanned document fits. */
export const DEFAULT_MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024;

export function loadDvirConfig(env: Record<string, string | undefined> = process.env): DvirConfig {
  const base = loadSubgraphConfig('dvir', 'DVIR', 4002, env);
  const own = parseEnv(
    'dvir',
    z
      .object({
        NODE_ENV: z.string().optional(),
        DVIR_PUBLIC_URL: z.string().url().optional(),
        DVIR_FILE_URL_TTL_S: envField.int(300, 1),
        DVIR_FILE_URL_SECRET: z.string().min(16, 'must have at least 16 characters').optional(),
        DVIR_MAX_ATTACHMENT_BYTES: envField.int(DEFAULT_MAX_ATTACHMENT_BYTES, 1),
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
      })
      .superRefine((values, context) => {
        // The local store serves what it holds: never a folder holding the generated secrets.
        if (
          !values.DVIR_S3_BUCKET &&
          overlap(values.DVIR_FILES_DIR ?? defaultLocalRoot(dataDir), secretsDir(dataDir))
        )
          context.addIssue({
            code: z.ZodIssueCode.custom,
            path: ['DVIR_FILES_DIR'],
            message: `must not hold, or be inside, the secrets folder ${secretsDir(dataDir)}`,
          });
        if (values.NODE_ENV === 'production' && !values.DVIR_S3_BUCKET && !values.DVIR_FILE_URL_SECRET)
          context.addIssue({
            code: z.ZodIssueCode.custom,
            path: ['DVIR_FILE_URL_SECRET'],
            message:
              'required in production when dvir serves the files itself (no DVIR_S3_BUCKET): every instance must sign file URLs with the same key',
          });
      }),
    env,
  );
  return {
    ...base,
    publicUrl: own.DVIR_PUBLIC_URL ?? `http://localhost:${base.port}`,
    fileUrlTtlS: own.DVIR_FILE_URL_TTL_S,
    // A secret of its own: a key derived from another secret would be known to whoever knows that one.
    fileUrlSecret: own.DVIR_FILE_URL_SECRET ?? randomBytes(32).toString('base64url'),
    maxAttachmentBytes: own.DVIR_MAX_ATTACHMENT_BYTES,
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

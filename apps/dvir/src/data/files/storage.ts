/**
 * Where attachment bytes live, behind one interface: the local filesystem by default
 * (`<dataDir>/dvir-files`, zero setup), S3-compatible object storage when DVIR_S3_BUCKET is set.
 * Keys are opaque paths chosen by dvir (`<attachment id>/<sha256>`), never client input.
 */
import { createReadStream } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { dirname, join, resolve, sep } from 'node:path';
import {
  CreateBucketCommand,
  GetObjectCommand,
  HeadBucketCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

export interface FileStorage {
  readonly kind: 'local' | 's3';
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The bytes, or null when no object has that key. */
  get(key: string): Promise<Buffer | null>;
  /**
   * The bytes as a stream read as they are sent (a download never holds a file in memory), with
   * their size; null when no object has that key.
   */
  open(key: string): Promise<{ body: Readable; byteSize: number } | null>;
  /** A presigned download URL (S3 only; local files are served by the dvir app). */
  presign?(key: string, options: { contentType: string; filename: string; ttlS: number }): Promise<string>;
}

export function localStorage(root: string): FileStorage {
  const base = resolve(root);
  const path = (key: string) => {
    const full = resolve(base, key);
    if (!full.startsWith(base + sep)) throw new Error(`storage key outside the storage root: ${key}`);
    return full;
  };
  return {
    kind: 'local',
    async put(key, bytes) {
      const file = path(key);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, bytes);
    },
    async get(key) {
      try {
        return await readFile(path(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async open(key) {
      const file = path(key);
      try {
        const { size } = await stat(file);
        return { body: createReadStream(file), byteSize: size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
  };
}

export interface S3Settings {
  endpoint?: string | undefined;
  bucket: string;
  region: string;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  forcePathStyle: boolean;
  /** Endpoint clients reach, for presigned URLs, when it differs from `endpoint` (e.g. MinIO in docker-compose). */
  publicEndpoint?: string | undefined;
}

export function s3Storage(settings: S3Settings): FileStorage {
  const clientFor = (endpoint: string | undefined) =>
    new S3Client({
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      ...(endpoint ? { endpoint } : {}),
      ...(settings.accessKeyId && settings.secretAccessKey
        ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
        : {}),
    });
  const client = clientFor(settings.endpoint);
  const presigner = settings.publicEndpoint ? clientFor(settings.publicEndpoint) : client;
  let bucketReady: Promise<void> | undefined;
  const ensureBucket = () =>
    (bucketReady ??= client
      .send(new HeadBucketCommand({ Bucket: settings.bucket }))
      .then(() => undefined)
      .catch(async () => {
        await client.send(new CreateBucketCommand({ Bucket: settings.bucket }));
      })
      .catch((error) => {
        bucketReady = undefined;
        throw error;
      }));
  const getObject = async (key: string) => {
    try {
      return await client.send(new GetObjectCommand({ Bucket: settings.bucket, Key: key }));
    } catch (error) {
      const name = (error as { name?: string }).name;
      if (name === 'NoSuchKey' || name === 'NotFound' || name === 'NoSuchBucket') return null;
      throw error;
    }
  };
  return {
    kind: 's3',
    async put(key, bytes, contentType) {
      await ensureBucket();
      await client.send(
        new PutObjectCommand({ Bucket: settings.bucket, Key: key, Body: bytes, ContentType: contentType }),
      );
    },
    async get(key) {
      const out = await getObject(key);
      return out ? Buffer.from(await out.Body!.transformToByteArray()) : null;
    },
    async open(key) {
      const out = await getObject(key);
      return out ? { body: out.Body as Readable, byteSize: out.ContentLength ?? 0 } : null;
    },
    async presign(key, { contentType, filename, ttlS }) {
      return getSignedUrl(
        presigner,
        new GetObjectCommand({
          Bucket: settings.bucket,
          Key: key,
          ResponseContentType: contentType,
          ResponseContentDisposition: contentDisposition(filename),
        }),
        { expiresIn: ttlS },
      );
    },
  };
}

/** `inline; filename="..."; filename*=UTF-8''...` with the name made safe for a header. */
export function contentDisposition(filename: string, type: 'inline' | 'attachment' = 'inline'): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

export const defaultLocalRoot = (dataDir: string) => join(dataDir, 'dvir-files');

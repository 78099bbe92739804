/**
 * Attachment files: storing bytes (type sniffed, size and sha256 recorded), the download URL of
 * an attachment, and the `GET /files/:id` route that serves a signed URL. The route lives outside
 * the authenticated /graphql scope: the signature is the authorization, bound to one attachment
 * and expiring (403 when altered or expired, 404 when the file does not exist). Downloads stream
 * from storage as they are sent, and each client address may run `concurrentPerAddress` of them
 * at once and start `perMinute` a minute (429 with Retry-After past either).
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Knex } from 'knex';
import { isUuid } from '@fleetgraph/paging';
import { memoryLimiter } from '@fleetgraph/service-kit';
import { sniffContentType } from './sniff';
import { contentDisposition, type FileStorage } from './storage';
import type { UrlSigner } from './signing';

export interface StoredFile {
  storageKey: string;
  byteSize: number;
  sha256: string;
  contentType: string;
}

/** How much one client address may download (DVIR_FILES_PER_MINUTE, DVIR_FILES_CONCURRENT_PER_ADDRESS). */
export interface DownloadLimits {
  perMinute: number;
  concurrentPerAddress: number;
}

export interface AttachmentFile {
  id: string;
  storageKey: string | null;
  filename: string;
  contentType: string;
}

export class FileService {
  constructor(
    readonly storage: FileStorage,
    readonly signer: UrlSigner,
    readonly publicUrl: string,
    readonly ttlS: number,
    readonly downloads: DownloadLimits,
  ) {}

  /** Stores bytes (content-addressed: equal files are stored once); what to record on the attachment row. */
  async store(bytes: Uint8Array): Promise<StoredFile> {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const contentType = sniffContentType(bytes);
    const storageKey = `sha256/${sha256.slice(0, 2)}/${sha256}`;
    await this.storage.put(storageKey, bytes, contentType);
    return { storageKey, byteSize: bytes.byteLength, sha256, contentType };
  }

  /** A short-lived URL to download the attachment's file; null when it has none. */
  async url(file: AttachmentFile): Promise<string | null> {
    if (!file.storageKey) return null;
    if (this.storage.presign) {
      return this.storage.presign(file.storageKey, {
        contentType: file.contentType,
        filename: file.filename,
        ttlS: this.ttlS,
      });
    }
    const { exp, sig } = this.signer.sign(file.id);
    return `${this.publicUrl.replace(/\/$/, '')}/files/${file.id}?exp=${exp}&sig=${sig}`;
  }

  registerRoute(app: FastifyInstance, knex: Knex): void {
    const started = memoryLimiter({ perMinute: this.downloads.perMinute });
    const running = new Map<string, number>();
    const tooMany = (reply: FastifyReply, retryAfterSeconds: number, why: string) =>
      reply
        .code(429)
        .header('retry-after', String(retryAfterSeconds))
        .header('cache-control', 'no-store')
        .send({ error: 'too_many_requests', error_description: `${why}; retry in ${retryAfterSeconds} s.` });
    app.get<{ Params: { id: string }; Querystring: { exp?: string; sig?: string } }>(
      '/files/:id',
      async (request, reply) => {
        const address = request.ip;
        if ((running.get(address) ?? 0) >= this.downloads.concurrentPerAddress)
          return tooMany(
            reply,
            1,
            `At most ${this.downloads.concurrentPerAddress} downloads run at once per address`,
          );
        const decision = await started.take(address);
        if (!decision.allowed)
          return tooMany(
            reply,
            Math.max(1, Math.ceil(decision.retryAfterMs / 1000)),
            `At most ${this.downloads.perMinute} downloads start per minute per address`,
          );
        const { id } = request.params;
        const verdict = this.signer.verify(id, request.query.exp, request.query.sig);
        if (verdict !== 'ok') {
          return reply
            .code(403)
            .header('cache-control', 'no-store')
            .send({
              error: verdict === 'expired' ? 'url_expired' : 'invalid_signature',
              error_description:
                verdict === 'expired'
                  ? 'This file URL has expired: ask the API for a new fileUrl.'
                  : 'This file URL is not valid (altered or incomplete): ask the API for a new fileUrl.',
            });
        }
        const row: { storage_key: string | null; filename: string; content_type: string } | undefined =
          isUuid(id)
            ? await knex('dvir.attachments')
                .first('storage_key', 'filename', 'content_type')
                .where('id', id.toLowerCase())
            : undefined;
        const file = row?.storage_key ? await this.storage.open(row.storage_key) : null;
        if (!row || !file) {
          return reply
            .code(404)
            .header('cache-control', 'no-store')
            .send({ error: 'not_found', error_description: 'No file is stored for this attachment.' });
        }
        running.set(address, (running.get(address) ?? 0) + 1);
        reply.raw.once('close', () => {
          const left = (running.get(address) ?? 1) - 1;
          if (left === 0) running.delete(address);
          else running.set(address, left);
        });
        return reply
          .header('content-type', row.content_type)
          .header('content-disposition', contentDisposition(row.filename))
          .header('content-length', file.byteSize)
          .header('cache-control', 'private, max-age=60')
          .header('x-content-type-options', 'nosniff')
          .send(file.body);
      },
    );
  }
}

import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { blobChunks, blobs } from '../db/schema.ts';
import { tooLarge } from '../errors.ts';
import { newId } from '../ids.ts';

export interface StoredBlob {
  blobId: string;
  size: number;
  sha256: string;
}

/**
 * Where file bytes live. Streams in and out so that no caller needs a whole file in
 * memory; the database store below can be joined by an object-store one.
 */
export interface BlobStore {
  /** Stores the bytes; refuses (and keeps nothing) past `maxBytes`. */
  put(source: AsyncIterable<Uint8Array>, options: { maxBytes: number }): Promise<StoredBlob>;
  get(blobId: string): AsyncIterable<Uint8Array>;
  delete(blobId: string): Promise<void>;
}

export const CHUNK_BYTES = 256 * 1024;

/** Blobs as rows of fixed-size bytea chunks in the application database. */
export class DatabaseBlobStore implements BlobStore {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  async put(source: AsyncIterable<Uint8Array>, options: { maxBytes: number }): Promise<StoredBlob> {
    const blobId = newId();
    // No transaction around the upload: it may take as long as the client's network, and
    // the embedded database has a single connection. A failure deletes what was written.
    await this.db.insert(blobs).values({ id: blobId, size: 0, sha256: '' });
    const hash = createHash('sha256');
    let size = 0;
    let seq = 0;
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    const flush = async (all: boolean) => {
      while (pendingBytes >= CHUNK_BYTES || (all && pendingBytes > 0)) {
        const joined = Buffer.concat(pending);
        const data = joined.subarray(0, CHUNK_BYTES);
        await this.db.insert(blobChunks).values({ blobId, seq: seq++, data });
        const rest = joined.subarray(data.length);
        pending = rest.length > 0 ? [rest] : [];
        pendingBytes = rest.length;
      }
    };
    try {
      for await (const piece of source) {
        size += piece.length;
        if (size > options.maxBytes) {
          throw tooLarge(`The file is larger than the limit of ${Math.floor(options.maxBytes / 1024 / 1024)} MB.`);
        }
        hash.update(piece);
        pending.push(piece);
        pendingBytes += piece.length;
        await flush(false);
      }
      await flush(true);
      const sha256 = hash.digest('hex');
      await this.db.update(blobs).set({ size, sha256 }).where(eq(blobs.id, blobId));
      return { blobId, size, sha256 };
    } catch (error) {
      await this.delete(blobId);
      throw error;
    }
  }

  async *get(blobId: string): AsyncIterable<Uint8Array> {
    for (let seq = 0; ; seq++) {
      const [row] = await this.db
        .select({ data: blobChunks.data })
        .from(blobChunks)
        .where(and(eq(blobChunks.blobId, blobId), eq(blobChunks.seq, seq)));
      if (!row) return;
      yield row.data;
    }
  }

  async delete(blobId: string): Promise<void> {
    await this.db.delete(blobs).where(eq(blobs.id, blobId));
  }
}

/** Reads a whole blob; for consumers (PDF parsing, OCR) that need the bytes at once. */
export async function readBlob(store: BlobStore, blobId: string): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of store.get(blobId)) parts.push(part);
  return Buffer.concat(parts);
}

import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { access, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Database } from '../../db/database.ts';
import type { BlobStore } from '../../storage/blob-store.ts';

/** Which of a table's two derived files. */
export type TableFileKind = 'parquet' | 'csv';

/**
 * Where tables live on local disk for the executors, which read files: under the data directory
 * with the embedded database, else (PostgreSQL, PGlite in memory, or no database at hand) under the
 * system's temporary directory. It is a cache: the blobs in the database are the truth.
 */
export function tableCacheDirOf(database?: Database): string {
  if (database?.kind === 'pglite' && database.dataDir !== undefined) return join(database.dataDir, 'table-files');
  return join(tmpdir(), 'docagent-table-files');
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * Table files on local disk, named by the SHA-256 of their bytes (`<sha>.parquet`, `<sha>.csv`):
 * the same bytes are one file whoever made them, a file is never changed once in place (it is
 * written aside and renamed in, atomically), and one missing (a new server, a cleaned disk) is
 * written again from its blob. Several processes may share the directory.
 */
export class TableFileCache {
  readonly dir: string;
  private readonly blobs: BlobStore;

  constructor(dir: string, blobs: BlobStore) {
    this.dir = dir;
    this.blobs = blobs;
  }

  pathOf(sha256: string, kind: TableFileKind): string {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`"${sha256}" is not a SHA-256 in hex`);
    return join(this.dir, `${sha256}.${kind}`);
  }

  /** A directory of its own for one ingest's temporary files, on the cache's file system so that results are moved in, not copied. */
  async workDir(): Promise<{ path: string; remove(): Promise<void> }> {
    const parent = join(this.dir, 'work');
    await mkdir(parent, { recursive: true });
    const path = await mkdtemp(join(parent, 'ingest-'));
    return { path, remove: () => rm(path, { recursive: true, force: true }) };
  }

  /** Moves a file just made (and stored as a blob with this SHA-256) into the cache. */
  async adopt(path: string, sha256: string, kind: TableFileKind): Promise<string> {
    const target = this.pathOf(sha256, kind);
    await rename(path, target);
    return target;
  }

  /** The file's local path, written from its blob first when it is not on this disk. */
  async materialize(blobId: string, sha256: string, kind: TableFileKind): Promise<string> {
    const target = this.pathOf(sha256, kind);
    if (await exists(target)) return target;
    await mkdir(this.dir, { recursive: true });
    const partial = `${target}.${randomBytes(6).toString('hex')}.part`;
    const hash = createHash('sha256');
    const hashing = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(Readable.from(this.blobs.get(blobId)), hashing, createWriteStream(partial, { mode: 0o644 }));
      const actual = hash.digest('hex');
      if (actual !== sha256) {
        throw new Error(
          `the stored ${kind} file of a table is damaged or missing (blob ${blobId}); add the document to the dataset again`,
        );
      }
      await rename(partial, target);
      return target;
    } finally {
      await rm(partial, { force: true });
    }
  }
}

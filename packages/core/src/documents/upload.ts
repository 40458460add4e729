import { inArray } from 'drizzle-orm';
import { documents } from '../db/schema.ts';
import { invalidInput, tooLarge } from '../errors.ts';
import { actorName, type OrgAccess } from '../identity/access.ts';
import { newId } from '../ids.ts';
import { getOrgLlmSettings } from '../llm/llm-settings.ts';
import { checkTagsExist } from '../tags/tags.ts';
import { checkMetadata, checkTagIds, type DocumentRecord, type DocumentServices } from './documents.ts';
import { checkDocumentName, SNIFF_BYTES, sniffDocumentType } from './sniff.ts';

export interface UploadLimits {
  maxFileBytes: number;
  maxRequestBytes: number;
  maxFiles: number;
}

/** One file of an upload; `content` is read once, as it arrives. */
export interface UploadFile {
  name: string;
  content: AsyncIterable<Uint8Array>;
  tagIds?: string[];
  metadata?: Record<string, string>;
  /** Run the headless agent once the text is ready; undefined: the organization's default. */
  autoCreate?: boolean;
}

const megabytes = (bytes: number) => `${Math.floor(bytes / 1024 / 1024)} MB`;

/** Splits a byte stream into its first `bytes` (for sniffing) and a stream of everything. */
async function peek(
  source: AsyncIterable<Uint8Array>,
  bytes: number,
): Promise<{ head: Uint8Array; all: AsyncIterable<Uint8Array> }> {
  const iterator = source[Symbol.asyncIterator]();
  const taken: Uint8Array[] = [];
  let size = 0;
  let done = false;
  while (size < bytes) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    taken.push(next.value);
    size += next.value.length;
  }
  const head = Buffer.concat(taken).subarray(0, bytes);
  async function* all() {
    yield* taken;
    if (done) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { head, all: all() };
}

/**
 * Stores the files of one upload request as documents in state `uploaded`, then schedules
 * their text extraction. The request is all or nothing: when any file is refused (its
 * type, name, size, or the request's total size), nothing of the request is kept and the
 * error names the file. Types come from the bytes, never from the name alone.
 */
export async function uploadDocuments(
  services: DocumentServices,
  access: OrgAccess,
  files: Iterable<UploadFile> | AsyncIterable<UploadFile>,
  limits: UploadLimits,
): Promise<DocumentRecord[]> {
  const uploadedBy = await actorName(services.db, access);
  const { autoCreateDefault } = await getOrgLlmSettings(services.db, access.orgId);
  const stored: DocumentRecord[] = [];
  let requestBytes = 0;
  // Sizes are checked as the bytes arrive, so an oversized upload is refused before it is all read.
  async function* limited(name: string, source: AsyncIterable<Uint8Array>) {
    let fileBytes = 0;
    for await (const piece of source) {
      fileBytes += piece.length;
      requestBytes += piece.length;
      if (fileBytes > limits.maxFileBytes) {
        throw tooLarge(`"${name}" is larger than the limit of ${megabytes(limits.maxFileBytes)} per file.`);
      }
      if (requestBytes > limits.maxRequestBytes) {
        throw tooLarge(
          `The upload is larger than the limit of ${megabytes(limits.maxRequestBytes)} per request; send fewer files at once.`,
        );
      }
      yield piece;
    }
  }
  try {
    for await (const file of files) {
      if (stored.length >= limits.maxFiles) {
        throw invalidInput(`An upload may hold at most ${limits.maxFiles} files; send the rest in another request.`);
      }
      const autoCreate = file.autoCreate ?? autoCreateDefault;
      stored.push(
        await storeDocument(
          services,
          access.orgId,
          uploadedBy,
          { ...file, autoCreate, content: limited(file.name, file.content) },
          limits,
        ),
      );
    }
  } catch (error) {
    await discard(services, stored);
    throw error;
  }
  if (stored.length === 0) throw invalidInput('The upload holds no file; attach at least one document.');
  for (const doc of stored) {
    services.events?.publish({
      type: 'document.uploaded',
      orgId: access.orgId,
      documentId: doc.id,
      at: new Date().toISOString(),
    });
    await services.scheduler.scheduleTextExtraction(doc.id);
  }
  return stored;
}

async function storeDocument(
  services: DocumentServices,
  orgId: string,
  uploadedBy: string,
  file: UploadFile,
  limits: UploadLimits,
): Promise<DocumentRecord> {
  const name = checkDocumentName(file.name);
  const tagIds = checkTagIds(file.tagIds ?? []);
  await checkTagsExist(services.db, orgId, tagIds);
  const metadata = checkMetadata(file.metadata ?? {});
  const { head, all } = await peek(file.content, SNIFF_BYTES);
  const type = await sniffDocumentType(name, head);
  const blob = await services.blobs.put(all, { maxBytes: limits.maxFileBytes });
  const [row] = await services.db
    .insert(documents)
    .values({
      id: newId(),
      orgId,
      name,
      mimeType: type.mimeType,
      kind: type.kind,
      state: 'uploaded',
      tagIds,
      metadata,
      blobId: blob.blobId,
      sizeBytes: blob.size,
      uploadedBy,
      autoCreate: file.autoCreate ?? false,
      autoCreateStatus: file.autoCreate ? 'pending' : null,
    })
    .returning();
  if (!row) throw new Error('insert into documents returned no row');
  return row;
}

async function discard(services: DocumentServices, stored: DocumentRecord[]): Promise<void> {
  if (stored.length === 0) return;
  await services.db.delete(documents).where(
    inArray(
      documents.id,
      stored.map((d) => d.id),
    ),
  );
  for (const doc of stored) await services.blobs.delete(doc.blobId);
}

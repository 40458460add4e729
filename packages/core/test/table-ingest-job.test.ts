import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import {
  addDatasetTable,
  CsvToParquet,
  createDataset,
  createOrganization,
  type Database,
  DatabaseBlobStore,
  type DatasetServices,
  getDataset,
  JobQueue,
  ModelRegistry,
  TableFileCache,
  uploadDocuments,
} from '../src/index.ts';
import { openTestDatabase } from '../src/testing/test-database.ts';

let database: Database;
let queue: JobQueue;
let cacheDir: string;
let converter: CsvToParquet;

before(async () => {
  database = await openTestDatabase();
  cacheDir = mkdtempSync(join(tmpdir(), 'docagent-ingest-job-'));
  converter = new CsvToParquet({ tempDir: join(cacheDir, 'duckdb') });
  const blobs = new DatabaseBlobStore(database.db);
  queue = await JobQueue.start(
    database,
    {
      text: { db: database.db, blobs, extract: async () => ({ pageCount: 0, pages: [] }) },
      extraction: { db: database.db, llm: new ModelRegistry(database.db, { env: {}, maxRetries: 0, timeoutMs: 1000 }) },
      tableIngest: { db: database.db, blobs, tableFiles: new TableFileCache(cacheDir, blobs), converter },
    },
    { workers: 1, pollingIntervalSeconds: 0.5 },
  );
});
after(async () => {
  await queue.stop();
  await converter.close();
  await database.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

test('a document past the size ingested during the request is made into its table by a job', async () => {
  const orgId = (await createOrganization(database.db, { name: 'jobs' })).id;
  const access = { orgId, role: 'admin' as const, userId: null };
  const blobs = new DatabaseBlobStore(database.db);
  const services: DatasetServices = {
    db: database.db,
    blobs,
    tableFiles: new TableFileCache(cacheDir, blobs),
    converter,
    scheduler: queue,
    syncIngestMaxBytes: 4,
  };
  const [document] = await uploadDocuments(
    { db: database.db, blobs, scheduler: { scheduleTextExtraction: async () => {} } },
    access,
    [
      {
        name: 'big.csv',
        content: (async function* () {
          yield Buffer.from('a,b\n1,x\n2,y\n');
        })(),
      },
    ],
    { maxFileBytes: 1024, maxRequestBytes: 1024, maxFiles: 1 },
  );
  const dataset = await createDataset(services, access, { name: 'later' });
  const [pending] = await addDatasetTable(services, orgId, dataset.id, { documentId: document?.id ?? '' });
  assert.equal(pending?.status, 'pending');
  const deadline = Date.now() + 60_000;
  for (;;) {
    const [table] = (await getDataset(database.db, orgId, dataset.id)).tables;
    if (table?.status !== 'pending') {
      assert.equal(table?.status, 'ready', table?.error ?? '');
      assert.equal(table?.rowCount, 2);
      break;
    }
    assert.ok(Date.now() < deadline, 'the ingest job ran within a minute');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});

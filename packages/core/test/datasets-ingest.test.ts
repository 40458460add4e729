import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import {
  addDatasetTable,
  CsvToParquet,
  createDataset,
  createOrganization,
  type Database,
  DatabaseBlobStore,
  type DatasetServices,
  type DatasetTableRecord,
  deleteDataset,
  deleteDocument,
  extractDocumentText,
  getDataset,
  isDomainError,
  newId,
  readBlob,
  runTableIngest,
  sniffDocumentType,
  TableFileCache,
  tableFilesOf,
  tableNameOf,
  tables,
} from '../src/index.ts';
import { openTestDatabase } from '../src/testing/test-database.ts';

let database: Database;
let orgId: string;
let cacheDir: string;
let converter: CsvToParquet;
const scheduled: string[] = [];
const access = () => ({ orgId, role: 'admin' as const, userId: null });

function services(syncIngestMaxBytes = 50 * 1024 * 1024): DatasetServices {
  const blobs = new DatabaseBlobStore(database.db);
  return {
    db: database.db,
    blobs,
    tableFiles: new TableFileCache(cacheDir, blobs),
    converter,
    scheduler: { scheduleTableIngest: async (id) => void scheduled.push(id) },
    syncIngestMaxBytes,
  };
}

before(async () => {
  database = await openTestDatabase();
  orgId = (await createOrganization(database.db, { name: 'data org' })).id;
  cacheDir = mkdtempSync(join(tmpdir(), 'docagent-table-cache-'));
  converter = new CsvToParquet({ tempDir: join(cacheDir, 'duckdb') });
});
after(async () => {
  await converter.close();
  await database.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

/** A document as stored, whatever its bytes: ingest must cope with what the upload's sniffing would refuse, too. */
async function storedDocument(name: string, bytes: Uint8Array | string, kind: 'csv' | 'xlsx' = 'csv'): Promise<string> {
  const content = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  const blob = await new DatabaseBlobStore(database.db).put(
    (async function* () {
      if (content.length > 0) yield content;
    })(),
    { maxBytes: 1e9 },
  );
  const id = newId();
  await database.db.insert(tables.documents).values({
    id,
    orgId,
    name,
    mimeType: kind === 'csv' ? 'text/csv' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    kind,
    state: 'uploaded',
    blobId: blob.blobId,
    sizeBytes: blob.size,
    uploadedBy: 'test',
  });
  return id;
}

let datasetCount = 0;
async function tablesOf(name: string, bytes: Uint8Array | string, kind: 'csv' | 'xlsx' = 'csv'): Promise<DatasetTableRecord[]> {
  const documentId = await storedDocument(name, bytes, kind);
  const dataset = await createDataset(services(), access(), { name: `set ${++datasetCount}` });
  return addDatasetTable(services(), orgId, dataset.id, { documentId });
}

async function onlyTable(name: string, bytes: Uint8Array | string): Promise<DatasetTableRecord> {
  const [table, ...more] = await tablesOf(name, bytes);
  assert.ok(table && more.length === 0, 'one table');
  return table;
}

const typesOf = (t: DatasetTableRecord) => Object.fromEntries(t.columns.map((c) => [c.name, c.type]));

async function normalizedCsv(table: DatasetTableRecord): Promise<string> {
  const [file] = await tableFilesOf(services().tableFiles, [table]);
  assert.ok(file);
  return readFileSync(file.csvPath, 'utf8');
}

async function expectFailed(name: string, bytes: Uint8Array | string, reason: RegExp): Promise<void> {
  const table = await onlyTable(name, bytes);
  assert.equal(table.status, 'failed');
  assert.match(table.error ?? '', reason);
  assert.equal(table.parquetBlobId, null);
}

describe('ingest of awkward CSV files', () => {
  test('a BOM and ; separators: columns typed, the normalized CSV has commas, a header, CRLF and no BOM', async () => {
    const table = await onlyTable('Sales 2024.csv', '\uFEFFid;name;amount\n1;Alice;3.5\n2;Bob;4\n3;Carol;7\n');
    assert.equal(table.status, 'ready', table.error ?? '');
    assert.equal(table.tableName, 'sales_2024');
    assert.deepEqual(typesOf(table), { id: 'BIGINT', name: 'VARCHAR', amount: 'DOUBLE' });
    assert.equal(table.rowCount, 3);
    assert.equal(await normalizedCsv(table), 'id,name,amount\r\n1,Alice,3.5\r\n2,Bob,4.0\r\n3,Carol,7.0\r\n');
  });

  test('quoted fields with line breaks stay one row each', async () => {
    const table = await onlyTable('notes.csv', 'id,note\n1,"line one\nline two"\n2,plain\n');
    assert.equal(table.status, 'ready', table.error ?? '');
    assert.equal(table.rowCount, 2);
    assert.equal(await normalizedCsv(table), 'id,note\r\n1,"line one\nline two"\r\n2,plain\r\n');
  });

  test('ragged rows: short ones padded with NULLs, one too wide past the sniffed lines skipped and counted', async () => {
    const lines = ['a,b', ...Array.from({ length: 25_000 }, (_, i) => `${i + 1},x`), '25001,y,extra', '25002,short', '25003'];
    const table = await onlyTable('ragged.csv', `${lines.join('\n')}\n`);
    assert.equal(table.status, 'ready', table.error ?? '');
    assert.deepEqual(typesOf(table), { a: 'BIGINT', b: 'VARCHAR' });
    assert.equal(table.rowCount, 25_002);
    assert.equal(table.skippedRows, 1);
    assert.match(await normalizedCsv(table), /\r\n25002,short\r\n25003,\r\n$/);
  });

  test('a column whose later values are not numbers is read as VARCHAR, with no row lost', async () => {
    const lines = ['a,b', ...Array.from({ length: 30_000 }, (_, i) => `${i + 1},v${i}`), 'abc,z'];
    const table = await onlyTable('mixed.csv', `${lines.join('\n')}\n`);
    assert.equal(table.status, 'ready', table.error ?? '');
    assert.deepEqual(typesOf(table), { a: 'VARCHAR', b: 'VARCHAR' });
    assert.equal(table.rowCount, 30_001);
    assert.equal(table.skippedRows, 0);
  });

  test('dates, timestamps and booleans are inferred; a file without a header gets column0, column1, ...', async () => {
    const typed = await onlyTable(
      'typed.csv',
      'd,t,b\n2024-01-02,2024-01-02 10:00:00,true\n2024-02-03,2024-02-03 11:30:00,false\n',
    );
    assert.deepEqual(typesOf(typed), { d: 'DATE', t: 'TIMESTAMP', b: 'BOOLEAN' });
    const bare = await onlyTable('bare.csv', '1,2,3\n4,5,6\n');
    assert.deepEqual(typesOf(bare), { column0: 'BIGINT', column1: 'BIGINT', column2: 'BIGINT' });
    assert.equal(bare.rowCount, 2);
    const tabs = await onlyTable('tabs.tsv', 'x\ty\n1\tone\n');
    assert.deepEqual(typesOf(tabs), { x: 'BIGINT', y: 'VARCHAR' });
  });

  test('invalid bytes past the first 64 KB skip their line and are counted', async () => {
    const good = Array.from({ length: 5000 }, (_, i) => `${i + 1},abcdefghijklmnopqrstuvwxyz`).join('\n');
    const bytes = Buffer.concat([Buffer.from(`a,b\n${good}\n5001,`), Buffer.from([0xff, 0xfe]), Buffer.from('\n5002,ok\n')]);
    const table = await onlyTable('late-bytes.csv', bytes);
    assert.equal(table.status, 'ready', table.error ?? '');
    assert.equal(table.skippedRows, 1);
    assert.equal(table.rowCount, 5001);
  });

  test('an empty file, blank lines, and binary data named .csv fail with the reason', async () => {
    await expectFailed('empty.csv', '', /"empty\.csv" is empty \(0 bytes\)/);
    await expectFailed('blank.csv', '\n\n  \n', /holds only blank lines/);
    const binary = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    await expectFailed('picture.csv', binary, /"picture\.csv" is not a text CSV/);
    await expectFailed(
      'latin1.csv',
      Buffer.from([0x6e, 0x61, 0x6d, 0x65, 0x0a, 0x43, 0x61, 0x66, 0xe9, 0x0a]),
      /is not a text CSV/,
    );
  });
});

async function workbook(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sales = book.addWorksheet('Sales');
  sales.addRow(['Region', 'Q1', 'Q2', 'Total', 'Day', 'Shout']);
  sales.addRow([
    'North',
    10,
    20,
    { formula: 'B2+C2', result: 30 },
    new Date(Date.UTC(2024, 0, 15)),
    { formula: 'UPPER(A2)', result: 'NORTH' },
  ]);
  sales.addRow([
    'South',
    5,
    7,
    { formula: 'B3+C3', result: 12 },
    new Date(Date.UTC(2024, 1, 1)),
    { formula: 'UPPER(A3)', result: 'SOUTH' },
  ]);
  sales.addRow([
    'West',
    1,
    2,
    { formula: 'B4+C4', result: 3 },
    new Date(Date.UTC(2024, 2, 1)),
    { formula: 'UPPER(A4)', result: 'WEST' },
  ]);
  sales.addRow([
    null,
    3,
    4,
    { formula: 'B5+C5', result: 7 },
    new Date(Date.UTC(2024, 2, 2)),
    { formula: 'UPPER(A5)', result: '' },
  ]);
  // West covers two rows: the lower one reads empty.
  sales.mergeCells('A4:A5');
  const notes = book.addWorksheet('Notes');
  notes.addRow(['k', 'v']);
  notes.addRow(['a', 1]);
  notes.addRow(['b', 2]);
  book.addWorksheet('Empty');
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** A ZIP local file entry, stored uncompressed (what sniffing reads of a ZIP). */
function zipEntry(name: string, data: string): Buffer {
  const header = Buffer.alloc(30);
  header.write('PK\x03\x04', 0, 'latin1');
  header.writeUInt16LE(20, 4);
  header.writeUInt32LE(data.length, 18);
  header.writeUInt32LE(data.length, 22);
  header.writeUInt16LE(name.length, 26);
  return Buffer.concat([header, Buffer.from(name), Buffer.from(data)]);
}

describe('XLSX workbooks', () => {
  test('each sheet with data is a table: formulas as their results, merged cells once, dates as dates', async () => {
    const made = await tablesOf('Q1 Book.xlsx', await workbook(), 'xlsx');
    assert.deepEqual(
      made.map((t) => [t.tableName, t.sheetName, t.status]),
      [
        ['q1_book_notes', 'Notes', 'ready'],
        ['q1_book_sales', 'Sales', 'ready'],
      ],
    );
    const [notes, sales] = made as [DatasetTableRecord, DatasetTableRecord];
    assert.deepEqual(typesOf(sales), {
      Region: 'VARCHAR',
      Q1: 'BIGINT',
      Q2: 'BIGINT',
      Total: 'BIGINT',
      Day: 'DATE',
      Shout: 'VARCHAR',
    });
    assert.equal(sales.rowCount, 4);
    assert.equal(
      await normalizedCsv(sales),
      'Region,Q1,Q2,Total,Day,Shout\r\nNorth,10,20,30,2024-01-15,NORTH\r\nSouth,5,7,12,2024-02-01,SOUTH\r\nWest,1,2,3,2024-03-01,WEST\r\n,3,4,7,2024-03-02,\r\n',
    );
    assert.deepEqual(typesOf(notes), { k: 'VARCHAR', v: 'BIGINT' });
    assert.equal(notes.rowCount, 2);
  });

  test('a workbook of one sheet with data is one table named after the file', async () => {
    const book = new ExcelJS.Workbook();
    book.addWorksheet('Only').addRows([
      ['x', 'y'],
      [1, 'one'],
    ]);
    const made = await tablesOf('single.xlsx', Buffer.from(await book.xlsx.writeBuffer()), 'xlsx');
    assert.deepEqual(
      made.map((t) => [t.tableName, t.sheetName]),
      [['single', 'Only']],
    );
  });

  test('a damaged workbook fails with the reason', async () => {
    const [table] = await tablesOf('broken.xlsx', (await workbook()).subarray(0, 300), 'xlsx');
    assert.equal(table?.status, 'failed');
    assert.match(table?.error ?? '', /"broken\.xlsx" is not a readable XLSX workbook/);
  });

  test('an XLSX upload is detected from its bytes, and its text is each sheet as CSV', async () => {
    const bytes = await workbook();
    assert.equal((await sniffDocumentType('book.xlsx', bytes.subarray(0, 64 * 1024))).kind, 'xlsx');
    assert.equal((await sniffDocumentType('book', bytes.subarray(0, 64 * 1024))).kind, 'xlsx');
    await assert.rejects(sniffDocumentType('book.csv', bytes), /named like a text file but its content is an XLSX workbook/);
    // A workbook whose content types come late in the ZIP: known by its xl/ entries.
    const late = Buffer.concat([zipEntry('docProps/app.xml', '<Properties/>'), zipEntry('xl/workbook.xml', '<workbook/>')]);
    assert.equal((await sniffDocumentType('late.xlsx', late)).kind, 'xlsx');
    await assert.rejects(sniffDocumentType('archive.zip', zipEntry('docs/readme.txt', 'hi')), /application\/zip content/);
    await assert.rejects(
      sniffDocumentType('old.xls', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...new Array(600).fill(0)])),
      /save it as \.xlsx/,
    );
    const text = await extractDocumentText({ bytes, kind: 'xlsx' });
    assert.equal(text.pageCount, 3);
    assert.equal(
      text.pages[0]?.text.split('\n').slice(0, 3).join('\n'),
      '# Sheet: Sales\nRegion,Q1,Q2,Total,Day,Shout\nNorth,10,20,30,2024-01-15,NORTH',
    );
    assert.equal(text.pages[1]?.text, '# Sheet: Notes\nk,v\na,1\nb,2\n');
    assert.equal(text.pages[2]?.text, '# Sheet: Empty\n');
  });
});

describe('table names', () => {
  test('from file stems: lower-case, other characters to _, a leading digit prefixed', () => {
    assert.equal(tableNameOf('Sales 2024.csv'), 'sales_2024');
    assert.equal(tableNameOf('2024-Q1 (final).xlsx'), 't_2024_q1_final');
    assert.equal(tableNameOf('Café Crème.tsv'), 'cafe_creme');
    assert.equal(tableNameOf('%%%.csv'), 'table');
  });

  test('a clash gets _2; a name asked for that is taken, or not an identifier, is refused; a document is in a dataset once', async () => {
    const dataset = await createDataset(services(), access(), { name: 'clashes' });
    const first = await storedDocument('orders.csv', 'id\n1\n');
    const second = await storedDocument('Orders.csv', 'id\n2\n');
    const third = await storedDocument('more.csv', 'id\n3\n');
    assert.equal((await addDatasetTable(services(), orgId, dataset.id, { documentId: first }))[0]?.tableName, 'orders');
    assert.equal((await addDatasetTable(services(), orgId, dataset.id, { documentId: second }))[0]?.tableName, 'orders_2');
    const refused = async (input: { documentId: string; tableName?: string }, kind: string, message: RegExp) => {
      await assert.rejects(addDatasetTable(services(), orgId, dataset.id, input), (e: unknown) => {
        assert.ok(isDomainError(e) && e.kind === kind, String(e));
        assert.match(e.message, message);
        return true;
      });
    };
    await refused({ documentId: third, tableName: 'orders' }, 'conflict', /already has a table named orders/);
    await refused({ documentId: third, tableName: 'More Orders' }, 'invalid_input', /is not a table name.*"more_orders"/);
    await refused({ documentId: first }, 'conflict', /"orders\.csv" is already in this dataset as orders/);
    assert.equal(
      (await addDatasetTable(services(), orgId, dataset.id, { documentId: third, tableName: 'extra' }))[0]?.tableName,
      'extra',
    );
  });
});

describe('tables as files', () => {
  test('a large document is ingested by a job: pending until it ran, then ready', async () => {
    const documentId = await storedDocument('later.csv', 'a,b\n1,2\n');
    const dataset = await createDataset(services(), access(), { name: 'by job' });
    const [pending] = await addDatasetTable(services(0), orgId, dataset.id, { documentId });
    assert.equal(pending?.status, 'pending');
    assert.equal(scheduled.at(-1), pending?.id);
    await runTableIngest(services(), pending?.id ?? '', { isLast: false });
    const [ready] = (await getDataset(database.db, orgId, dataset.id)).tables;
    assert.equal(ready?.status, 'ready');
    assert.equal(ready?.rowCount, 1);
    // A second delivery of the job finds nothing left to do.
    await runTableIngest(services(), pending?.id ?? '', { isLast: false });
  });

  test('a table file missing from the disk is written again from its blob, byte for byte', async () => {
    const table = await onlyTable('again.csv', 'x,y\n1,2\n');
    const [file] = await tableFilesOf(services().tableFiles, [table]);
    assert.ok(file && table.parquetSha256);
    const parquet = readFileSync(file.parquetPath);
    rmSync(file.parquetPath);
    rmSync(file.csvPath);
    const [again] = await tableFilesOf(services().tableFiles, [table]);
    assert.equal(again?.parquetPath, file.parquetPath);
    assert.deepEqual(readFileSync(again?.parquetPath ?? ''), parquet);
    assert.equal(readFileSync(again?.csvPath ?? '', 'utf8'), 'x,y\r\n1,2\r\n');
    assert.equal(file.parquetPath, join(cacheDir, `${table.parquetSha256}.parquet`));
  });

  test('deleting the source document keeps the table and its data; the table no longer names it', async () => {
    const documentId = await storedDocument('kept.csv', 'x\n1\n2\n');
    const dataset = await createDataset(services(), access(), { name: 'outlives its document', documentIds: [documentId] });
    await deleteDocument(services(), orgId, documentId);
    const [table] = (await getDataset(database.db, orgId, dataset.id)).tables;
    assert.equal(table?.status, 'ready');
    assert.equal(table?.documentId, null);
    const [file] = await tableFilesOf(services().tableFiles, table ? [table] : []);
    assert.equal(readFileSync(file?.csvPath ?? '', 'utf8'), 'x\r\n1\r\n2\r\n');
  });

  test('deleting a dataset deletes its tables’ stored files but not the documents', async () => {
    const documentId = await storedDocument('gone.csv', 'x\n1\n');
    const dataset = await createDataset(services(), access(), { name: 'to delete', documentIds: [documentId] });
    const [table] = dataset.tables;
    assert.ok(table?.parquetBlobId && table.csvBlobId);
    await deleteDataset(services(), orgId, dataset.id);
    assert.equal((await readBlob(services().blobs, table.parquetBlobId)).length, 0);
    assert.equal((await readBlob(services().blobs, table.csvBlobId)).length, 0);
    const [document] = await database.db.select().from(tables.documents).where(eq(tables.documents.id, documentId));
    assert.ok(document, 'the source document stays');
  });
});

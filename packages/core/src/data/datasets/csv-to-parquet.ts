import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { TableColumn } from '../../db/schema.ts';

/** What an ingest made of one CSV: the files, their schema, and how many lines it could not read. */
export interface ConvertedTable {
  parquetPath: string;
  csvPath: string;
  columns: TableColumn[];
  rowCount: number;
  skippedRows: number;
}

/** Why a file could not become a table, in words a person can act on. */
export class IngestError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'IngestError';
  }
}

/** Re-reads with more columns as VARCHAR this many times at most: each pass may find another column whose later rows broke its type. */
const MAX_TYPE_PASSES = 5;

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** DuckDB's first line, without the "Invalid Input Error:" prefix and the sniffer's dump of what it tried. */
function duckdbMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? message).replace(/^[A-Za-z ]+ Error: /, '').trim();
}

export interface CsvEngineOptions {
  /** DuckDB's working directory for spilling what does not fit in memory. */
  tempDir: string;
  threads?: number;
  /** DuckDB's memory_limit (default 512MB): it runs inside the server, and spills to `tempDir` past it. */
  memoryLimit?: string;
}

/**
 * Turns CSV files into Parquet with inferred types (and rows made here into Parquet with given
 * ones), and the Parquet back into a normalized CSV, with DuckDB in this process. This instance
 * reads and writes files (external access on), so it is given only paths this process made;
 * queries from people and models never reach it (they run in the SQL executor's locked-down child
 * process).
 */
export class CsvToParquet {
  private readonly options: CsvEngineOptions;
  private instance: Promise<DuckDBInstance> | undefined;

  constructor(options: CsvEngineOptions) {
    this.options = options;
  }

  private open(): Promise<DuckDBInstance> {
    this.instance ??= DuckDBInstance.create(':memory:', {
      threads: String(this.options.threads ?? 2),
      memory_limit: this.options.memoryLimit ?? '512MB',
      temp_directory: this.options.tempDir,
    });
    return this.instance;
  }

  /**
   * Reads `source` with DuckDB's CSV sniffer (delimiter, quoting, header, BOM, types). Short rows
   * are padded with NULLs; lines it cannot read at all are skipped and counted; a column whose
   * later values break the type its first rows suggested is read again as VARCHAR. `dialect: 'rfc4180'`
   * fixes comma and double quotes for files we wrote ourselves (XLSX sheets).
   */
  async convert(source: string, outDir: string, dialect: 'sniff' | 'rfc4180' = 'sniff'): Promise<ConvertedTable> {
    const instance = await this.open();
    const parquetPath = join(outDir, 'table.parquet');
    const csvPath = join(outDir, 'table.csv');
    const asText = new Set<string>();
    let skippedRows = 0;
    for (let pass = 1; ; pass++) {
      const con = await instance.connect();
      try {
        const found = await this.readOnce(con, source, parquetPath, dialect, asText);
        const fresh = found.castColumns.filter((c) => !asText.has(c));
        if (fresh.length === 0 || pass === MAX_TYPE_PASSES) {
          skippedRows = found.skippedRows;
          break;
        }
        for (const column of fresh) asText.add(column);
      } finally {
        con.closeSync();
      }
    }
    return this.withCsvCopy(instance, parquetPath, csvPath, skippedRows);
  }

  /**
   * Rows this process wrote itself (JSON lines, one object per row keyed by column name) as Parquet
   * with exactly these column types, and its normalized CSV. A key the columns do not name is
   * ignored and a missing one is NULL; a value must already have its column's type.
   */
  async convertJsonLines(source: string, outDir: string, columns: TableColumn[]): Promise<ConvertedTable> {
    const instance = await this.open();
    const parquetPath = join(outDir, 'table.parquet');
    const csvPath = join(outDir, 'table.csv');
    const types = columns.map((c) => `${literal(c.name)}: ${literal(c.type)}`).join(', ');
    const con = await instance.connect();
    try {
      await con.run(
        `COPY (SELECT * FROM read_json(${literal(source)}, format = 'newline_delimited', columns = {${types}})) TO ${literal(parquetPath)} (FORMAT parquet)`,
      );
    } finally {
      con.closeSync();
    }
    return this.withCsvCopy(instance, parquetPath, csvPath, 0);
  }

  /** Writes the Parquet file's rows as the normalized CSV pandas reads, and reads back its schema and row count. */
  private async withCsvCopy(
    instance: DuckDBInstance,
    parquetPath: string,
    csvPath: string,
    skippedRows: number,
  ): Promise<ConvertedTable> {
    const con = await instance.connect();
    try {
      await con.run(
        `COPY (SELECT * FROM read_parquet(${literal(parquetPath)})) TO ${literal(csvPath)} (FORMAT csv, HEADER true, DELIMITER ',', QUOTE '"', ESCAPE '"', NEW_LINE '\\r\\n')`,
      );
      const described = await con.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${literal(parquetPath)})`);
      const columns = described.getRowObjectsJson().map((r) => ({ name: String(r.column_name), type: String(r.column_type) }));
      const counted = await con.runAndReadAll(`SELECT count(*)::DOUBLE AS n FROM read_parquet(${literal(parquetPath)})`);
      const rowCount = Number(counted.getRowObjectsJson()[0]?.n ?? 0);
      return { parquetPath, csvPath, columns, rowCount, skippedRows };
    } finally {
      con.closeSync();
    }
  }

  private async readOnce(
    con: DuckDBConnection,
    source: string,
    parquetPath: string,
    dialect: 'sniff' | 'rfc4180',
    asText: ReadonlySet<string>,
  ): Promise<{ castColumns: string[]; skippedRows: number }> {
    const options = [
      'null_padding = true',
      'ignore_errors = true',
      'store_rejects = true',
      // The parallel reader cannot pad short rows when quoted fields hold line breaks.
      'parallel = false',
      ...(dialect === 'rfc4180' ? [`delim = ','`, `quote = '"'`, `escape = '"'`] : []),
      ...(asText.size > 0 ? [`types = {${[...asText].map((c) => `${literal(c)}: 'VARCHAR'`).join(', ')}}`] : []),
    ];
    try {
      await con.run(
        `COPY (SELECT * FROM read_csv(${literal(source)}, ${options.join(', ')})) TO ${literal(parquetPath)} (FORMAT parquet)`,
      );
    } catch (error) {
      throw new IngestError(
        `The file could not be read as CSV (${duckdbMessage(error)}); save it as comma-separated UTF-8 CSV with one header row and try again.`,
        { cause: error },
      );
    }
    const casts = await con.runAndReadAll(`SELECT DISTINCT column_name FROM reject_errors WHERE error_type = 'CAST'`);
    const skipped = await con.runAndReadAll(`SELECT count(DISTINCT line)::DOUBLE AS n FROM reject_errors`);
    return {
      castColumns: casts.getRowObjectsJson().map((r) => String(r.column_name)),
      skippedRows: Number(skipped.getRowObjectsJson()[0]?.n ?? 0),
    };
  }

  async close(): Promise<void> {
    const instance = await this.instance?.catch(() => undefined);
    this.instance = undefined;
    instance?.closeSync();
  }
}

import { type DuckDBConnection, type DuckDBPreparedStatement, type DuckDBResult, StatementType } from '@duckdb/node-api';
import { ExecutionFailure, type QueryResult, type SqlParameter, type TableFile } from '../executors.ts';
import { type EngineSettings, openSandbox, type Sandbox } from './duckdb-sandbox.ts';
import { jsonValueConverter } from './duckdb-values.ts';
import { checkSqlPolicy, policyRefusal } from './sql-policy.ts';

/** One query as the SQL child process receives it. */
export interface SandboxedQuery {
  sql: string;
  params: SqlParameter[];
  tables: Array<Pick<TableFile, 'name' | 'parquetPath'>>;
  maxRows: number;
  maxOutputBytes: number;
  engine: EngineSettings;
}

/**
 * Past the caps the stream is still read (without converting rows) up to this many rows, so
 * that `row_count` is exact for results of ordinary size; beyond it, it is the rows seen so
 * far, a lower bound, and the rest is never computed.
 */
const COUNTED_ROWS = 100_000;

const message = (error: unknown) => String((error as Error).message ?? error);

/** DuckDB's error as the model should see it: out of memory is a limit, anything else its own message. */
function engineFailure(error: unknown, engine: EngineSettings): ExecutionFailure {
  if (error instanceof ExecutionFailure) return error;
  const text = message(error);
  if (text.startsWith('Out of Memory Error')) {
    return new ExecutionFailure(
      'limit',
      `The query needed more than the ${engine.memoryLimit} memory limit and was stopped (${text}); filter or aggregate earlier, or select fewer columns.`,
    );
  }
  return new ExecutionFailure('error', text);
}

async function prepare(query: SandboxedQuery, connection: DuckDBConnection): Promise<DuckDBPreparedStatement> {
  const extracted = await checkSqlPolicy(
    connection,
    query.sql,
    query.tables.map((table) => table.name),
  );
  const prepared = await extracted.prepare(0);
  if (prepared.statementType !== StatementType.SELECT) throw policyRefusal('the statement is not a SELECT');
  if (prepared.parameterCount !== query.params.length) {
    throw new ExecutionFailure(
      'error',
      `The query has ${prepared.parameterCount} parameter placeholders ($1, $2...) but ${query.params.length} values were given; write the values into the query instead.`,
    );
  }
  prepared.bind(query.params);
  return prepared;
}

/** Rows until a cap cuts, fetched chunk by chunk (2048 rows): a huge result is never held, nor computed past the cut. */
async function readCapped(
  result: DuckDBResult,
  query: SandboxedQuery,
): Promise<Pick<QueryResult, 'rows' | 'row_count' | 'truncated'>> {
  const rows: unknown[][] = [];
  let bytes = 2;
  let seen = 0;
  let truncated: QueryResult['truncated'] = null;
  while (truncated === null) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) return { rows, row_count: seen, truncated };
    seen += chunk.rowCount;
    for (const row of chunk.convertRows(jsonValueConverter)) {
      if (rows.length >= query.maxRows) {
        truncated = 'rows';
        break;
      }
      const size = Buffer.byteLength(JSON.stringify(row)) + (rows.length > 0 ? 1 : 0);
      if (bytes + size > query.maxOutputBytes) {
        truncated = 'bytes';
        break;
      }
      bytes += size;
      rows.push(row);
    }
  }
  while (seen < COUNTED_ROWS) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    seen += chunk.rowCount;
  }
  return { rows, row_count: seen, truncated };
}

/**
 * Runs one query the way the SQL child process does: a fresh sandboxed database, the policy,
 * then the statement, its result read as a stream and capped. Throws ExecutionFailure.
 */
export async function runSandboxedQuery(query: SandboxedQuery): Promise<QueryResult> {
  const started = performance.now();
  let sandbox: Sandbox;
  try {
    sandbox = await openSandbox(query.tables, query.engine);
  } catch (error) {
    throw new ExecutionFailure(
      'error',
      `The dataset's tables could not be opened (${message(error)}); re-upload the files or try again.`,
    );
  }
  try {
    const prepared = await prepare(query, sandbox.connection);
    const result = await prepared.stream();
    const columns = result.columnNames().map((name, i) => ({ name, type: String(result.columnType(i)) }));
    const read = await readCapped(result, query);
    return { columns, ...read, exec_time_ms: Math.round(performance.now() - started) };
  } catch (error) {
    throw engineFailure(error, query.engine);
  } finally {
    sandbox.close();
  }
}

import type { DuckDBConnection, DuckDBExtractedStatements } from '@duckdb/node-api';
import { ExecutionFailure } from '../executors.ts';
import { ALLOWED_TABLE_FUNCTIONS, findOutsideReference } from './sql-parse-tree.ts';

/**
 * Whether a SQL text may run, by DuckDB's own parser: the statements it finds and the parse
 * tree of the one statement. No string matching, so comments, string literals holding `;`,
 * quoting and letter case mean to the policy exactly what they mean to DuckDB.
 */

/** What the policy allows, said in every refusal so the model can rewrite its query. */
export const SQL_POLICY_RULE =
  "one SELECT statement (WITH ... SELECT included) over the dataset's tables; " +
  `the table functions ${[...ALLOWED_TABLE_FUNCTIONS].join(', ')}; information_schema.tables and .columns, SHOW TABLES and DESCRIBE. ` +
  'No files or URLs, settings (SET, PRAGMA, RESET), COPY, ATTACH, INSTALL/LOAD, CALL, EXPORT/IMPORT or writes';

/** The refusal of a query, saying what was wrong with it and what is allowed. */
export const policyRefusal = (what: string) =>
  new ExecutionFailure('policy', `The query was refused: ${what}. Allowed: ${SQL_POLICY_RULE}.`);

interface SerializedSql {
  error: boolean;
  error_type?: string;
  error_message?: string;
  statements?: unknown[];
}

/**
 * DuckDB's own wording of a syntax error (with the line and a caret), which its statement
 * extractor gives. Safe to call only on a text that does not parse: the extractor parses the
 * whole text before it expands anything, and an IMPORT DATABASE it expanded would read files.
 */
async function syntaxError(connection: DuckDBConnection, sql: string, fallback: string): Promise<ExecutionFailure> {
  try {
    await connection.extractStatements(sql);
  } catch (error) {
    return new ExecutionFailure('error', String((error as Error).message).replace(/^Failed to extract statements: /, ''));
  }
  return new ExecutionFailure('error', `Parser Error: ${fallback}`);
}

/**
 * Throws ExecutionFailure('policy') when `sql` is not one SELECT over the tables named
 * `tableNames`, ExecutionFailure('error') with DuckDB's message when it does not parse. Runs
 * only the parser, never the query; answers the statement, extracted, for the caller to prepare.
 */
export async function checkSqlPolicy(
  connection: DuckDBConnection,
  sql: string,
  tableNames: readonly string[],
): Promise<DuckDBExtractedStatements> {
  // The plain parser first: DuckDB's statement extractor expands PRAGMA and IMPORT DATABASE as it
  // goes (IMPORT reads the export's files), json_serialize_sql does not. Only a SelectStatement
  // serializes: PRAGMA, EXPLAIN, SET, COPY, CALL... answer an error, even PRAGMA, which a
  // prepared statement would report as a SELECT.
  const reader = await connection.runAndReadAll('SELECT json_serialize_sql($1::VARCHAR)', [sql]);
  const serialized = JSON.parse(String(reader.getRows()[0]?.[0])) as SerializedSql;
  if (serialized.error && serialized.error_type === 'parser') {
    throw await syntaxError(connection, sql, serialized.error_message ?? 'the query does not parse');
  }
  if (serialized.error)
    throw policyRefusal(`the statement is not a SELECT (DuckDB: ${serialized.error_message ?? 'not serializable'})`);
  const statements = serialized.statements ?? [];
  if (statements.length === 0) throw policyRefusal('the SQL text holds no statement');
  if (statements.length > 1) throw policyRefusal(`the SQL text holds ${statements.length} statements`);

  const outside = findOutsideReference(statements, tableNames);
  if (outside) throw policyRefusal(outside);

  // The statement extractor, which execution uses, must see the same single statement.
  const extracted = await connection.extractStatements(sql);
  if (extracted.count !== 1) throw policyRefusal(`the SQL text holds ${extracted.count} statements`);
  return extracted;
}

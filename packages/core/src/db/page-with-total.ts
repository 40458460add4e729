import { count, getTableColumns, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './database.ts';

/**
 * A paged list's total, as a column beside each row of the page: a scalar subquery of the
 * statement that reads the page, so that page and total come from one snapshot in one round trip.
 * Read apart on two pooled connections, a row committed between the reads gave a total without
 * its row on the page ("0 of 1", 10,001 webhook deliveries with the newest missing), and a screen
 * that then saw nothing busy did not ask again.
 */
export const totalColumn = (counted: SQLWrapper): SQL<number> => sql<number>`(${counted})`.mapWith(Number);

/**
 * The page's rows without their total column, and the total. A page past the end has no row to
 * carry it, so it is counted on its own then: there is no row beside it to disagree with.
 */
export async function pageWithTotal<Row extends { total: number }>(
  rows: Row[],
  skip: number,
  countAlone: () => PromiseLike<Array<{ n: number }>>,
): Promise<{ rows: Array<Omit<Row, 'total'>>; total: number }> {
  const [first] = rows;
  if (first) return { rows: rows.map(({ total: _total, ...row }) => row), total: first.total };
  return { rows: [], total: skip === 0 ? 0 : ((await countAlone())[0]?.n ?? 0) };
}

/** A page of one table's rows, in `orderBy`'s order, with the total `where` keeps. */
export async function pageOfTable<T extends PgTable>(
  db: Db,
  table: T,
  where: SQL | undefined,
  orderBy: SQL[],
  page: { skip: number; limit: number },
): Promise<{ rows: T['$inferSelect'][]; total: number }> {
  const counted = db
    .select({ n: count() })
    .from(table as PgTable)
    .where(where);
  const rows = await db
    .select({ ...getTableColumns(table as PgTable), total: totalColumn(counted) })
    .from(table as PgTable)
    .where(where)
    .orderBy(...orderBy)
    .offset(page.skip)
    .limit(page.limit);
  const { rows: found, total } = await pageWithTotal(rows, page.skip, () => counted);
  return { rows: found as T['$inferSelect'][], total };
}

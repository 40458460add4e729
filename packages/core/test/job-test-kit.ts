import { sql } from 'drizzle-orm';
import { type Db, type ExtractFn, selectRows } from '../src/index.ts';

/** A text job's reader that takes a file's bytes as its one page of text, for tests of what comes after. */
export const plainTextExtract: ExtractFn = async ({ bytes }) => {
  const text = new TextDecoder().decode(bytes);
  return { pageCount: 1, pages: [{ page: 1, text, width: 1, height: 1, engine: 'plain', items: [] }] };
};

/** Jobs of a queue (in a state) in pg-boss's own table. */
export async function jobCount(db: Db, queueName: string, state?: string): Promise<number> {
  const [row] = await selectRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from pgboss.job where name = ${queueName} and (${state ?? null}::text is null or state::text = ${state ?? null})`,
  );
  return row?.n ?? 0;
}

import { getTablePreview, PREVIEW_MAX_ROWS } from '@docagent/core';
import { z } from 'zod';
import { orgOf } from '../http/auth.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import { ErrorBodySchema, OrgParamsSchema } from './schemas.ts';

const TableRowsParamsSchema = OrgParamsSchema.extend({
  dataset_id: z.string().min(1).max(64),
  table_name: z.string().min(1).max(200),
});

const TableRowsQuerySchema = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(PREVIEW_MAX_ROWS).default(100),
});

const TableRowsSchema = z.object({
  table_name: z.string(),
  columns: z.array(z.object({ name: z.string(), type: z.string() })),
  rows: z.array(z.array(z.unknown())).describe("Row-major, in the file's order"),
  offset: z.number(),
  total_count: z.number().describe('Rows in the table'),
});

/** A table's rows page by page, for a grid that scrolls through them (not recorded as runs). */
export function datasetRowRoutes(app: ZodApp, { data }: RouteDeps): void {
  app.get(
    '/v0/orgs/:organization_id/datasets/:dataset_id/tables/:table_name/rows',
    {
      schema: {
        summary: "A page of a table's rows, in the file's order",
        description: `At most ${PREVIEW_MAX_ROWS} rows from offset. A table still pending or failed is a 409.`,
        tags: ['datasets'],
        params: TableRowsParamsSchema,
        querystring: TableRowsQuerySchema,
        response: {
          200: TableRowsSchema,
          400: ErrorBodySchema,
          404: ErrorBodySchema,
          409: ErrorBodySchema,
          503: ErrorBodySchema,
        },
      },
    },
    async (request) => {
      const { dataset_id, table_name } = request.params;
      const { offset, limit } = request.query;
      const page = await getTablePreview(data, orgOf(request).orgId, dataset_id, { tableName: table_name, offset, limit });
      return {
        table_name: page.tableName,
        columns: page.columns,
        rows: page.rows,
        offset: page.offset,
        total_count: page.totalCount,
      };
    },
  );
}

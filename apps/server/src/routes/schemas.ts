import { z } from 'zod';

/** Shapes shared by several route files. */
export const ErrorBodySchema = z.object({
  detail: z.string(),
  code: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

/** An id in a path or a body: a prompt's, a batch's, a document's. */
export const id = z.string().min(1).max(64);

export const OrgParamsSchema = z.object({ organization_id: z.string().min(1).max(64) });

export const OrganizationSchema = z.object({ id: z.string(), name: z.string(), role: z.enum(['admin', 'user']) });

export const iso = (d: Date) => d.toISOString();
export const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

/** DocRouter's paging and name search for list routes: `skip`, `limit` (at most 100), `name_search`. */
export const PageQuerySchema = z.object({
  skip: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(10),
  name_search: z.string().max(200).optional(),
});
